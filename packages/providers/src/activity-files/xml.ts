// The XML side of GPX and TCX: fast-xml-parser with entities never expanded, and a small
// element tree whose names are matched by namespace URI (a prefix is only a local alias:
// one file writes `ns3:hr`, another `gpxtpx:hr` for the same Garmin extension).

import { XMLParser, XMLValidator, type X2jOptions } from "fast-xml-parser";

export const GPX_NAMESPACES: ReadonlySet<string> = new Set(["http://www.topografix.com/GPX/1/1"]);
export const TCX_NAMESPACE = "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2";
/** Garmin TrackPointExtension (GPX `hr`, `cad`; v2 adds `speed`, `course`). */
export const TRACK_POINT_EXTENSION_NAMESPACES: ReadonlySet<string> = new Set([
  "http://www.garmin.com/xmlschemas/TrackPointExtension/v1",
  "http://www.garmin.com/xmlschemas/TrackPointExtension/v2",
]);
/** Garmin ActivityExtension v2 (TCX `TPX` on trackpoints, `LX` on laps). */
export const ACTIVITY_EXTENSION_NAMESPACE = "http://www.garmin.com/xmlschemas/ActivityExtension/v2";
export const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";

/**
 * fast-xml-parser options: entities are never expanded (`processEntities: false`: an entity
 * declared in a DTD stays the literal `&name;`; external entities make the parser refuse the
 * document), values stay strings, attributes are read, and prefixes are kept so that
 * namespaces are resolved here, by URI.
 */
export const XML_PARSER_OPTIONS: X2jOptions = {
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: false,
  preserveOrder: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  allowBooleanAttributes: false,
};

/** An element with its namespace resolved: `ns` is the URI ("" when none). */
export interface XmlElement {
  ns: string;
  name: string;
  /** Attributes without a prefix by local name; prefixed ones as `{uri}local`. */
  attributes: ReadonlyMap<string, string>;
  children: XmlElement[];
  /** The element's own text (and CDATA), trimmed, with the predefined entities decoded. */
  text: string;
}

/** Deeper elements are left out: GPX and TCX nest about eight levels. */
const MAX_DEPTH = 32;

/** The document's root element, or why the bytes are not a well-formed XML document. */
export function readXml(bytes: Uint8Array): { root: XmlElement } | { error: string } {
  const text = decodeText(bytes);
  if (!/^\s*</.test(text)) return { error: "the file is not XML (it does not start with a tag)" };
  const validation = XMLValidator.validate(text);
  if (validation !== true) {
    const { code, line, col } = validation.err;
    const where = Number.isInteger(line) ? ` at line ${line}${Number.isInteger(col) ? `, column ${col}` : ""}` : "";
    return { error: `the XML is not well-formed (${code}${where})` };
  }
  let parsed: unknown;
  try {
    parsed = new XMLParser(XML_PARSER_OPTIONS).parse(text);
  } catch (error) {
    const external = error instanceof Error && /external entit/i.test(error.message);
    return { error: external ? "the XML declares an external entity, which is refused" : "the XML could not be parsed" };
  }
  const roots = Array.isArray(parsed) ? parsed.map((node) => elementOf(node, new Map(), 0)).filter((e) => e !== null) : [];
  const root = roots[0];
  if (!root || roots.length > 1) return { error: "the XML must have exactly one root element" };
  return { root };
}

/** UTF-8 unless a byte order mark says UTF-16; the BOM itself is dropped. */
function decodeText(bytes: Uint8Array): string {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-8";
  return new TextDecoder(encoding).decode(bytes);
}

type Scope = ReadonlyMap<string, string>;

/** fast-xml-parser's ordered node (`{ tag: [children], ":@": { attrs } }`) as an element; null for text and others. */
function elementOf(node: unknown, parentScope: Scope, depth: number): XmlElement | null {
  if (!isRecord(node) || depth > MAX_DEPTH) return null;
  const tag = Object.keys(node).find((key) => key !== ":@" && !key.startsWith("#") && !key.startsWith("?") && !key.startsWith("!"));
  if (tag === undefined) return null;
  const rawAttributes = isRecord(node[":@"]) ? node[":@"] : {};
  const scope = new Map(parentScope);
  for (const [key, value] of Object.entries(rawAttributes)) {
    if (typeof value !== "string") continue;
    if (key === "xmlns") scope.set("", decodeEntities(value).trim());
    else if (key.startsWith("xmlns:")) scope.set(key.slice(6), decodeEntities(value).trim());
  }
  const attributes = new Map<string, string>();
  for (const [key, value] of Object.entries(rawAttributes)) {
    if (typeof value !== "string" || key === "xmlns" || key.startsWith("xmlns:")) continue;
    const { prefix, local } = splitName(key);
    attributes.set(prefix === undefined ? local : `{${scope.get(prefix) ?? ""}}${local}`, decodeEntities(value));
  }
  const { prefix, local } = splitName(tag);
  const children: XmlElement[] = [];
  const texts: string[] = [];
  const content = node[tag];
  for (const child of Array.isArray(content) ? content : []) {
    if (isRecord(child) && typeof child["#text"] === "string") {
      texts.push(child["#text"]);
      continue;
    }
    const element = elementOf(child, scope, depth + 1);
    if (element) children.push(element);
  }
  return { ns: scope.get(prefix ?? "") ?? "", name: local, attributes, children, text: decodeEntities(texts.join("")).trim() };
}

function splitName(qualified: string): { prefix: string | undefined; local: string } {
  const colon = qualified.indexOf(":");
  return colon < 0 ? { prefix: undefined, local: qualified } : { prefix: qualified.slice(0, colon), local: qualified.slice(colon + 1) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/**
 * Decodes XML's five predefined entities and character references; any other `&name;`
 * (an entity a DTD declared) stays as written: entities are never expanded.
 */
export function decodeEntities(value: string): string {
  if (!value.includes("&")) return value;
  return value.replace(/&(lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});/g, (whole, name: string) => {
    if (!name.startsWith("#")) return PREDEFINED[name] ?? whole;
    const code = name.startsWith("#x") ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The child elements of a namespace and local name. */
export function childrenOf(element: XmlElement, ns: string | ReadonlySet<string>, name: string): XmlElement[] {
  return element.children.filter((c) => c.name === name && (typeof ns === "string" ? c.ns === ns : ns.has(c.ns)));
}

/** The first child element of a namespace and local name. */
export function childOf(element: XmlElement | undefined, ns: string | ReadonlySet<string>, name: string): XmlElement | undefined {
  return element ? childrenOf(element, ns, name)[0] : undefined;
}

/** The text of the first child of that name; undefined when missing or empty. */
export function childText(element: XmlElement | undefined, ns: string | ReadonlySet<string>, name: string): string | undefined {
  const text = childOf(element, ns, name)?.text;
  return text === undefined || text === "" ? undefined : text;
}

const XML_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * An `xsd:dateTime` as GPX and TCX write it. A time without a zone is read as UTC, as both
 * formats specify UTC; anything else is undefined.
 */
export function parseXmlTime(value: string | undefined): Date | undefined {
  const match = value === undefined ? null : XML_TIME.exec(value.trim());
  if (!match) return undefined;
  const zone = match[2] === undefined ? "Z" : match[2] === "Z" ? "Z" : match[2].replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
  const date = new Date(`${match[1]}${zone}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
