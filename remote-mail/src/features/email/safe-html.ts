/**
 * Safe preview of a quarantined e-mail's HTML (DESIGN §7). Pure module: string in, string out, no React.
 *
 * Layers, each enough on its own for the worst cases:
 *  1. DOMPurify (the browser's own parser, so no parser differential) with a strict ALLOWLIST of
 *     tags and attributes: no script, iframe, object, embed, form controls, meta, base, link, svg,
 *     math, media; no event handler; only http/https/mailto links.
 *  2. Our hooks, inside the same DOMPurify pass (never a second pass over sanitised HTML):
 *     - CSS of `style` attributes and `<style>` elements is filtered declaration by declaration:
 *       no `expression(`, `@import`, `url(` (unless remote images were asked for: https only, image
 *       properties only), no escapes, no `position` other than static/relative, no custom properties.
 *     - links become non-navigating `<span class="qc-link" title="<target>">`; their targets are
 *       collected for the list shown OUTSIDE the frame (open only after a confirmation).
 *     - images: none until the user opts in; then https (and data:image raster) only. A removed
 *       image becomes a placeholder showing its alt text.
 *  3. The result goes into `<iframe sandbox="" srcdoc>` (no scripts, opaque origin, no navigation,
 *     no forms, no popups) whose first element is a Content-Security-Policy meta: default-src 'none'.
 *     A srcdoc frame also inherits the console page's own CSP.
 */
import DOMPurify from 'dompurify';

export interface SafeHtmlOptions {
  /** The user clicked "Load remote images": https images (and data: raster images) are kept. */
  allowRemoteImages?: boolean;
}

export interface MessageLink {
  /** The real, normalised target (http, https or mailto). */
  href: string;
  /** What the message showed for it (text only, collapsed, trimmed). */
  text: string;
}

export interface SafeHtml {
  /** Sanitised body markup. */
  body: string;
  /** Complete document for `<iframe sandbox="" srcdoc>`, the CSP meta first. */
  srcdoc: string;
  /** Link targets found in the message, deduplicated, in order. */
  links: MessageLink[];
  /** Remote https images (img, background, CSS url()) left out that "Load remote images" would show. */
  blockedImages: number;
  /** The final check found something that should be impossible: nothing is shown (fail closed). */
  rejected: boolean;
}

// ---------------------------------------------------------------------------------------------
// Text helpers (also used by the detail page for the URL list and attachment names)
// ---------------------------------------------------------------------------------------------

import { revealBidi } from './bidi';

export { revealBidi };

/** hxxp://evil[.]example[.]com/path: a URL that can be read but neither clicked nor auto-linked. */
export function defangUrl(raw: string): string {
  const s = revealBidi(raw.trim());
  const m = /^([a-z][a-z0-9+.-]*):(\/\/)?([^/?#]*)([\s\S]*)$/i.exec(s);
  if (!m) {
    const cut = s.search(/[/?#]/);
    const host = cut === -1 ? s : s.slice(0, cut);
    return host.replace(/\./g, '[.]') + (cut === -1 ? '' : s.slice(cut));
  }
  const scheme = m[1]!.toLowerCase();
  const defangedScheme =
    { http: 'hxxp', https: 'hxxps', ftp: 'fxp', ftps: 'fxps', ws: 'wxs', wss: 'wxss' }[scheme] ?? scheme;
  return `${defangedScheme}:${m[2] ?? ''}${m[3]!.replace(/\./g, '[.]')}${m[4]}`;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** The text of a link looks like an address, but not the address it goes to ("https://bank.example"). */
export function isMisleadingLink(link: MessageLink): boolean {
  if (!/^https?:/i.test(link.href)) return false;
  const text = link.text.trim();
  if (!/^(https?:\/\/)?([a-z0-9-]+\.)+[a-z]{2,}([/:?#]\S*)?$/i.test(text)) return false;
  const shown = hostOf(/^https?:\/\//i.test(text) ? text : `https://${text}`);
  const real = hostOf(link.href);
  return shown !== null && real !== null && shown !== real;
}

// ---------------------------------------------------------------------------------------------
// URLs
// ---------------------------------------------------------------------------------------------

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A link target we may show: absolute http(s) or mailto, normalised by the URL parser (IDN → punycode). */
export function cleanHref(raw: string | null | undefined): string | null {
  const v = (raw ?? '').trim();
  if (!v || CONTROL.test(v) || !/^(https?:\/\/|mailto:)/i.test(v)) return null;
  try {
    const url = new URL(v);
    if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'mailto:') return null;
    if (url.protocol !== 'mailto:' && !url.hostname) return null;
    return url.href;
  } catch {
    return null;
  }
}

function isHttpsUrl(v: string): boolean {
  return /^https:\/\/[^\s'"()\\<>]+$/i.test(v) && cleanHref(v) !== null;
}

function isRemoteUrl(v: string): boolean {
  return /^https?:\/\//i.test(v.trim());
}

/** Inline raster images only (never SVG, which is a document). */
const DATA_IMAGE = /^data:image\/(png|gif|jpe?g|webp);base64,[a-z0-9+/=\s]+$/i;

// ---------------------------------------------------------------------------------------------
// CSS
// ---------------------------------------------------------------------------------------------

interface CssContext {
  allowRemoteImages: boolean;
  blockedImages: number;
}

/** Properties where a url() is an image (kept after the opt-in, https only). */
const IMAGE_PROPS = new Set([
  'background',
  'background-image',
  'list-style',
  'list-style-image',
  'border-image',
  'border-image-source',
]);
const BLOCKED_PROPS = new Set(['behavior', '-ms-behavior', '-moz-binding', 'binding']);
const SAFE_POSITIONS = new Set(['static', 'relative']);
const DANGEROUS_VALUE =
  /expression\s*\(|javascript\s*:|vbscript\s*:|livescript\s*:|-moz-binding|image-set\s*\(|(^|[^a-z-])(src|var|attr|element|paint|env)\s*\(/i;
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/;

/** Removes comments (outside strings); an unterminated comment swallows the rest, as in CSS. */
function stripCssComments(css: string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < css.length; i++) {
    const c = css[i]!;
    if (quote) {
      out += c;
      if (c === '\\' && i + 1 < css.length) out += css[++i];
      else if (c === quote || c === '\n') quote = null;
    } else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      if (end === -1) break;
      out += ' ';
      i = end + 1;
    } else {
      if (c === '"' || c === "'") quote = c;
      out += c;
    }
  }
  return out;
}

/** Index of the first of `stops` at depth 0 outside strings and parentheses, from `from`; -1 if none. */
function scan(text: string, from: number, stops: string): number {
  let quote: string | null = null;
  let parens = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote || c === '\n') quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') parens++;
    else if (c === ')') parens = Math.max(0, parens - 1);
    else if (parens === 0 && stops.includes(c)) return i;
  }
  return -1;
}

/** Index of the `}` closing the block opened at `open`, or -1. */
function blockEnd(text: string, open: number): number {
  let depth = 0;
  let i = open;
  while (i < text.length) {
    const next = scan(text, i, '{}');
    if (next === -1) return -1;
    depth += text[next] === '{' ? 1 : -1;
    if (depth === 0) return next;
    i = next + 1;
  }
  return -1;
}

function splitDeclarations(block: string): string[] {
  const parts: string[] = [];
  let i = 0;
  while (i <= block.length) {
    const end = scan(block, i, ';');
    parts.push(block.slice(i, end === -1 ? block.length : end));
    if (end === -1) break;
    i = end + 1;
  }
  return parts;
}

const URL_FN = /url\s*\(\s*(?:"([^"]*)"|'([^']*)'|([^'")\s]*))\s*\)/gi;

function cleanDeclaration(decl: string, ctx: CssContext): string | null {
  const colon = decl.indexOf(':');
  if (colon <= 0) return null;
  const prop = decl.slice(0, colon).trim().toLowerCase();
  const value = decl.slice(colon + 1).trim();
  // Plain property names only: no escapes, no custom properties (var() could rebuild what we refuse).
  if (!/^-?[a-z][a-z0-9-]*$/.test(prop) || !value || BLOCKED_PROPS.has(prop)) return null;
  // Escapes, markup, at-rules and nested blocks have no business in a declaration.
  if (/[\\<>@{}]/.test(value) || CONTROL_CHARS.test(value) || DANGEROUS_VALUE.test(value)) return null;
  const plain = value
    .toLowerCase()
    .replace(/!\s*important$/, '')
    .trim();
  if (prop === 'position' && !SAFE_POSITIONS.has(plain)) return null;
  const urlCount = (value.match(/url\s*\(/gi) ?? []).length;
  if (urlCount > 0) {
    const urls = [...value.matchAll(URL_FN)].map((m) => (m[1] ?? m[2] ?? m[3] ?? '').trim());
    const images = IMAGE_PROPS.has(prop);
    const allHttps = urls.length === urlCount && urls.every(isHttpsUrl);
    if (!ctx.allowRemoteImages || !images || !allHttps) {
      if (images && urls.some(isHttpsUrl)) ctx.blockedImages++;
      return null;
    }
  }
  return `${prop}: ${value}`;
}

/** A `style` attribute: only the declarations that pass. */
export function sanitizeStyleDeclarations(style: string, ctx: CssContext): string {
  const text = stripCssComments(style);
  if (text.includes('<')) return '';
  return splitDeclarations(text)
    .map((d) => cleanDeclaration(d, ctx))
    .filter((d): d is string => d !== null)
    .join('; ');
}

const SAFE_AT_BLOCKS = new Set(['media', 'supports', 'keyframes', '-webkit-keyframes']);

function safePrelude(prelude: string): boolean {
  return (
    !/[\\<@;{}]/.test(prelude.replace(/^@/, '')) &&
    !CONTROL_CHARS.test(prelude) &&
    !/url\s*\(|expression/i.test(prelude)
  );
}

/**
 * A `<style>` element: @media/@supports/@keyframes (recursively) and plain rules, each with its
 * declarations filtered. Every other at-rule (@import, @font-face, @namespace, @charset, @page…)
 * and anything unbalanced is dropped.
 */
export function sanitizeStylesheet(css: string, ctx: CssContext, depth = 0): string {
  const text = depth === 0 ? stripCssComments(css) : css;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const stop = scan(text, i, '{;}');
    if (stop === -1) break;
    const prelude = text.slice(i, stop).trim();
    if (text[stop] !== '{') {
      // A statement at-rule (@import url(x);), a stray `}` or junk: dropped.
      i = stop + 1;
      continue;
    }
    const close = blockEnd(text, stop);
    if (close === -1) break;
    const block = text.slice(stop + 1, close);
    i = close + 1;
    if (!prelude || !safePrelude(prelude)) continue;
    if (prelude.startsWith('@')) {
      const name = /^@([a-z-]+)/i.exec(prelude)?.[1]?.toLowerCase() ?? '';
      if (depth < 3 && SAFE_AT_BLOCKS.has(name)) out += `${prelude}{${sanitizeStylesheet(block, ctx, depth + 1)}}`;
      continue;
    }
    const declarations = sanitizeStyleDeclarations(block, ctx);
    if (declarations) out += `${prelude}{${declarations}}`;
  }
  return out.includes('<') ? '' : out;
}

// ---------------------------------------------------------------------------------------------
// HTML
// ---------------------------------------------------------------------------------------------

/**
 * What an e-mail may use. Everything else is dropped (its text kept, except in FORBID_CONTENTS).
 * `body` is the walk root (never output: only its content is).
 */
// prettier-ignore
const ALLOWED_TAGS = [
  'body', 'a', 'abbr', 'acronym', 'address', 'article', 'aside', 'b', 'bdi', 'bdo', 'big', 'blockquote', 'br',
  'caption', 'center', 'cite', 'code', 'col', 'colgroup', 'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt',
  'em', 'figcaption', 'figure', 'font', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup',
  'hr', 'i', 'img', 'ins', 'kbd', 'li', 'main', 'mark', 'nav', 'nobr', 'ol', 'p', 'pre', 'q', 'rp', 'rt',
  'ruby', 's', 'samp', 'section', 'small', 'span', 'strike', 'strong', 'style', 'sub', 'summary', 'sup',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'tt', 'u', 'ul', 'var', 'wbr',
];

// prettier-ignore
const ALLOWED_ATTR = [
  'abbr', 'align', 'alt', 'background', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'class',
  'color', 'colspan', 'datetime', 'dir', 'face', 'headers', 'height', 'hspace', 'id', 'lang', 'nowrap',
  'open', 'reversed', 'rowspan', 'scope', 'size', 'span', 'src', 'start', 'style', 'summary', 'title',
  'type', 'valign', 'value', 'vspace', 'width',
];

/** Content that must not survive even as text when its element goes. */
const ADD_FORBID_CONTENTS = ['object', 'embed', 'applet', 'select', 'textarea', 'option', 'datalist', 'canvas'];

/** Scheme-less values (widths, colours, classes) pass; schemes other than these fail. */
const ALLOWED_URI_REGEXP = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/** Styles of the frame itself (ours, trusted): readable on white whatever the console's theme. */
const FRAME_CSS =
  'html,body{margin:0;background:#fff;color:#000}body{padding:8px;font-family:system-ui,sans-serif;overflow-wrap:anywhere}' +
  'img{max-width:100%}.qc-link{color:#0645ad;text-decoration:underline;cursor:help}' +
  '.qc-blocked-image{display:inline-block;box-sizing:border-box;max-width:100%;overflow:hidden;border:1px dashed #999;' +
  'color:#666;font:12px/1.4 system-ui,sans-serif;padding:2px 4px;vertical-align:middle}';

/** The frame's own policy (the console's CSP applies too: a srcdoc frame inherits it). */
export function frameCsp(allowRemoteImages: boolean): string {
  return [
    "default-src 'none'",
    `img-src ${allowRemoteImages ? 'https: data:' : 'data:'}`,
    "style-src 'unsafe-inline'",
    "font-src 'none'",
    "media-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The srcdoc document: CSP meta FIRST, no referrer for images, our base styles, then the body. */
export function buildSrcdoc(body: string, allowRemoteImages: boolean): string {
  return (
    '<!DOCTYPE html><html><head>' +
    `<meta http-equiv="Content-Security-Policy" content="${frameCsp(allowRemoteImages)}">` +
    '<meta charset="utf-8"><meta name="referrer" content="no-referrer">' +
    `<style>${FRAME_CSS}</style></head><body>${body}</body></html>`
  );
}

const SAFE_LINK_ATTRS = new Set(['style', 'class', 'dir', 'lang']);

function dimension(v: string | null): number | null {
  const n = v && /^\d{1,4}(px)?$/.test(v.trim()) ? parseInt(v, 10) : NaN;
  return Number.isFinite(n) ? n : null;
}

function imageAllowed(src: string, allowRemoteImages: boolean): boolean {
  return allowRemoteImages && (isHttpsUrl(src) || DATA_IMAGE.test(src));
}

/** Element names whose presence in the output would mean the sanitiser failed: fail closed. */
const NEVER_OUTPUT = 'script,iframe,frame,object,embed,form,input,button,meta,base,link,svg,math,a,area,video,audio';

/** A last look at the result (not a rewrite): anything that should be impossible voids the preview. */
function isInert(root: Element, allowRemoteImages: boolean): boolean {
  if (root.querySelector(NEVER_OUTPUT)) return false;
  for (const el of Array.from(root.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || name === 'href' || name === 'srcset' || name === 'action') return false;
      if (name === 'src' && !(el.tagName === 'IMG' && imageAllowed(attr.value, allowRemoteImages))) return false;
      if (name === 'background' && !(allowRemoteImages && isHttpsUrl(attr.value))) return false;
      if (name === 'style' && !allowRemoteImages && /url\s*\(/i.test(attr.value)) return false;
    }
    const css = el.tagName === 'STYLE' ? (el.textContent ?? '') : '';
    if (/@import|expression\s*\(/i.test(css) || (!allowRemoteImages && /url\s*\(/i.test(css))) return false;
  }
  return true;
}

/**
 * Sanitises an e-mail's HTML for the preview frame. Pure: the same input and options give the same
 * output. Runs in a browser (or jsdom).
 */
export function sanitizeEmailHtml(html: string, options: SafeHtmlOptions = {}): SafeHtml {
  const allowRemoteImages = options.allowRemoteImages === true;
  const ctx: CssContext = { allowRemoteImages, blockedImages: 0 };
  const links = new Map<string, MessageLink>();
  // A fresh instance per call: our hooks never leak into another caller of DOMPurify.
  const purify = DOMPurify(window);

  purify.addHook('uponSanitizeElement', (node, data) => {
    if (!(node instanceof Element)) return;
    const doc = node.ownerDocument;
    if (data.tagName === 'style') {
      node.textContent = sanitizeStylesheet(node.textContent ?? '', ctx);
    } else if (data.tagName === 'a') {
      // A non-navigating span carrying the real target; the element walk then sanitises the span
      // and the moved children as usual.
      const span = doc.createElement('span');
      for (const attr of Array.from(node.attributes)) {
        if (SAFE_LINK_ATTRS.has(attr.name.toLowerCase())) span.setAttribute(attr.name, attr.value);
      }
      const href = cleanHref(node.getAttribute('href'));
      if (href) {
        span.setAttribute('class', `${span.getAttribute('class') ?? ''} qc-link`.trim());
        span.setAttribute('title', href);
        const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
        if (!links.has(href)) links.set(href, { href, text });
      }
      while (node.firstChild) span.appendChild(node.firstChild);
      node.parentNode?.replaceChild(span, node);
    } else if (data.tagName === 'img') {
      const src = (node.getAttribute('src') ?? '').trim();
      if (imageAllowed(src, allowRemoteImages)) return;
      if (isHttpsUrl(src)) ctx.blockedImages++;
      const width = dimension(node.getAttribute('width'));
      const height = dimension(node.getAttribute('height'));
      if ((width !== null && width <= 2) || (height !== null && height <= 2)) {
        node.parentNode?.removeChild(node); // a tracking pixel: nothing to show
        return;
      }
      const placeholder = doc.createElement('span');
      placeholder.setAttribute('class', 'qc-blocked-image');
      const alt = (node.getAttribute('alt') ?? '').trim();
      if (alt) placeholder.setAttribute('title', alt);
      const size = [
        width ? `width: ${Math.min(width, 1200)}px` : '',
        height ? `height: ${Math.min(height, 1200)}px` : '',
      ]
        .filter(Boolean)
        .join('; ');
      if (size) placeholder.setAttribute('style', size);
      placeholder.appendChild(doc.createTextNode(alt || '\u{1F5BC}'));
      node.parentNode?.replaceChild(placeholder, node);
    }
  });

  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const name = data.attrName;
    if (name === 'style') {
      const clean = sanitizeStyleDeclarations(data.attrValue, ctx);
      if (clean) data.attrValue = clean;
      else data.keepAttr = false;
    } else if (name === 'src') {
      // Only images that passed the element hook reach here with a src.
      if (!(node instanceof Element && node.tagName === 'IMG' && imageAllowed(data.attrValue, allowRemoteImages)))
        data.keepAttr = false;
    } else if (name === 'background') {
      if (allowRemoteImages && isHttpsUrl(data.attrValue)) return;
      if (isRemoteUrl(data.attrValue) && isHttpsUrl(data.attrValue)) ctx.blockedImages++;
      data.keepAttr = false;
    }
  });

  const body = purify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ADD_FORBID_CONTENTS,
    ALLOWED_URI_REGEXP,
    ALLOW_DATA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    ALLOW_SELF_CLOSE_IN_ATTR: false,
    // Keeps the <style> elements of the message's <head> (they land in the body).
    FORCE_BODY: true,
    RETURN_DOM: true,
  }) as HTMLElement;

  const rejected = !isInert(body, allowRemoteImages);
  const markup = rejected ? '' : body.innerHTML;
  return {
    body: markup,
    srcdoc: buildSrcdoc(markup, allowRemoteImages),
    links: rejected ? [] : [...links.values()],
    blockedImages: ctx.blockedImages,
    rejected,
  };
}
