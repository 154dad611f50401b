'use strict';
// Sets `key = value` in one section of an INI text (Haraka's format: "main" is before any
// [section]), replacing an active line for that key or adding one. Comments are kept.

function setIni(text, section, key, value) {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const keyRe = new RegExp(`^\\s*${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=`);
  let current = 'main';
  let sectionEnd = section === 'main' ? 0 : -1; // index after the last line of the section
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*\[([^\]]+)\]\s*$/.exec(lines[i]);
    if (m) {
      current = m[1].trim();
      if (current === section) sectionEnd = i + 1;
      continue;
    }
    if (current !== section) continue;
    if (keyRe.test(lines[i])) {
      lines[i] = `${key}=${value}`;
      return lines.join('\n');
    }
    if (lines[i].trim() !== '') sectionEnd = i + 1;
  }
  if (sectionEnd === -1) {
    if (lines.length && lines[lines.length - 1] === '') lines.pop();
    lines.push(`[${section}]`, `${key}=${value}`, '');
    return lines.join('\n');
  }
  lines.splice(sectionEnd, 0, `${key}=${value}`);
  return lines.join('\n');
}

module.exports = { setIni };
