/** Saves a Blob under a name through an object URL (no token in any URL, DESIGN §7). */
export function saveBlob(blob: Blob, name: string, type = 'application/octet-stream') {
  const url = URL.createObjectURL(new Blob([blob], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
