/** A parsed XML element: enough to count JUnit suites and cases. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const INVALID_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function decode(text: string, at: number): string {
  return text.replace(/&([^;]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(";")) throw new Error(`unterminated entity at ${at}`);
    if (ref in ENTITIES) return ENTITIES[ref];
    const m = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ref);
    if (!m) throw new Error(`unknown entity &${ref}; at ${at}`);
    const cp = m[1] ? parseInt(m[1], 16) : Number(m[2]);
    const ch = String.fromCodePoint(cp);
    if (INVALID_CHAR.test(ch)) throw new Error(`character reference to an invalid character at ${at}`);
    return ch;
  });
}

/**
 * A strict well-formedness check of an XML document (no DTDs, no namespaces needed): throws on
 * any error, returns the root element. Small on purpose: tests must not need xmllint.
 */
export function parseXml(xml: string): XmlElement {
  if (INVALID_CHAR.test(xml)) throw new Error(`invalid XML character at ${xml.search(INVALID_CHAR)}`);
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  if (xml.startsWith("<?xml")) {
    const end = xml.indexOf("?>");
    if (end < 0) throw new Error("unterminated XML declaration");
    i = end + 2;
  }
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    if (text.includes(">") && /]]>/.test(text)) throw new Error(`"]]>" in text at ${i}`);
    if (stack.length) stack[stack.length - 1].text += decode(text, i);
    else if (text.trim()) throw new Error(`text outside the root element at ${i}`);
    if (lt < 0) break;
    i = lt;
    if (xml.startsWith("<!--", i)) {
      const end = xml.indexOf("-->", i + 4);
      if (end < 0) throw new Error("unterminated comment");
      i = end + 3;
      continue;
    }
    if (xml.startsWith("<![CDATA[", i)) {
      const end = xml.indexOf("]]>", i);
      if (end < 0 || !stack.length) throw new Error("bad CDATA section");
      stack[stack.length - 1].text += xml.slice(i + 9, end);
      i = end + 3;
      continue;
    }
    if (xml[i + 1] === "/") {
      const m = NAME.exec(xml.slice(i + 2));
      const open = stack.pop();
      if (!m || !open || open.name !== m[0]) throw new Error(`mismatched end tag at ${i}`);
      i += 2 + m[0].length;
      while (/\s/.test(xml[i] ?? "")) i++;
      if (xml[i] !== ">") throw new Error(`bad end tag at ${i}`);
      i++;
      continue;
    }
    const m = NAME.exec(xml.slice(i + 1));
    if (!m) throw new Error(`bad tag name at ${i}`);
    const el: XmlElement = { name: m[0], attrs: {}, children: [], text: "" };
    i += 1 + m[0].length;
    for (;;) {
      const ws = /^\s*/.exec(xml.slice(i))![0].length;
      i += ws;
      if (xml.startsWith("/>", i) || xml[i] === ">") break;
      if (!ws) throw new Error(`missing space before attribute at ${i}`);
      const a = /^([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(xml.slice(i));
      if (!a) throw new Error(`bad attribute at ${i}`);
      if (a[1] in el.attrs) throw new Error(`duplicate attribute ${a[1]} at ${i}`);
      el.attrs[a[1]] = decode(a[3] ?? a[4], i);
      i += a[0].length;
    }
    if (stack.length) stack[stack.length - 1].children.push(el);
    else if (root) throw new Error(`second root element at ${i}`);
    else root = el;
    if (xml.startsWith("/>", i)) i += 2;
    else {
      i += 1;
      stack.push(el);
    }
  }
  if (stack.length) throw new Error(`unclosed <${stack[stack.length - 1].name}>`);
  if (!root) throw new Error("no root element");
  return root;
}
