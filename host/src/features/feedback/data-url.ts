/**
 * A Blob as a data: URL. Images are shown this way because the console's CSP allows `data:` images
 * and not `blob:` ones (DESIGN §7). Reads bytes (any Blob implementation), no canvas, no FileReader.
 */
export async function blobToDataUrl(blob: Blob, type: string = blob.type): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${type || 'application/octet-stream'};base64,${btoa(binary)}`;
}
