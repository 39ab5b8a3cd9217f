/**
 * Escaping for the two XML reports (JUnit, and HTML written as XHTML so it
 * parses as XML too). Text from the target can hold anything, including
 * characters XML 1.0 forbids outright (section 2.2: C0 controls but tab,
 * newline and carriage return; lone surrogates; U+FFFE and U+FFFF), which no
 * escaping can carry: those become a visible `\uXXXX`, so the report still
 * shows that they were there.
 */

// C1 controls (U+007F..U+009F) are legal XML but "discouraged" (XML 1.0 section 2.2) and break some CI viewers.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udfff]/gu;

function visible(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Character data: safe between tags. */
export function escapeText(value: string): string {
  return value.replace(NOT_XML, visible).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value, for use inside double quotes; newlines and tabs are kept as character references (XML 1.0 section 3.3.3 would otherwise fold them to spaces). */
export function escapeAttr(value: string): string {
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

/** `name="value"` pairs; undefined values are left out. */
export function attrs(values: Readonly<Record<string, string | number | undefined>>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttr(String(value))}"`)
    .join('');
}
