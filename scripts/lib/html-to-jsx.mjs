// Turns HTML that React DOM wrote back into JSX that renders the same bytes, so a stock app can
// render our page as elements (as its own components would), not as one string. It reads only
// React's own output: attributes in double quotes, void elements closed with "/>", "<!-- -->"
// between adjacent pieces of text. It is a benchmark's tool, not a general HTML parser.

const VOID = new Set([
  "area",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "wbr",
]);
const BOOLEAN = new Set([
  "async",
  "autoFocus",
  "checked",
  "defer",
  "disabled",
  "hidden",
  "multiple",
  "noValidate",
  "open",
  "readOnly",
  "required",
  "selected",
]);
// The HTML names React writes for props whose React names differ in more than hyphens.
const PROP_NAMES = { class: "className", for: "htmlFor", tabindex: "tabIndex" };
// What an input's or a textarea's initial state is called when no one controls it.
const UNCONTROLLED = { value: "defaultValue", checked: "defaultChecked" };
const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** @param {string} text */
export function decodeEntities(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name) => {
    if (name[0] !== "#") return ENTITIES[name] ?? whole;
    return String.fromCodePoint(
      name[1] === "x" ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
    );
  });
}

/**
 * @param {string} html a fragment React DOM rendered
 * @returns {string} JSX for a fragment of the same elements and text
 */
export function htmlToJsx(html) {
  const root = { name: "", children: [] };
  const open = [root];
  const token =
    /<!--([\s\S]*?)-->|<\/([a-zA-Z][\w:-]*)\s*>|<([a-zA-Z][\w:-]*)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*(\/?)>|([^<]+)/g;
  let lastIndex = 0;
  for (const match of html.matchAll(token)) {
    if (match.index !== lastIndex) throw new Error(`Unreadable HTML at ${lastIndex}`);
    lastIndex = match.index + match[0].length;
    const [, comment, closing, name, attributes, selfClosed, text] = match;
    const parent = open[open.length - 1];
    if (comment !== undefined) {
      // React's separator between two pieces of text: JSX makes it again for two expressions.
      if (comment === " ") parent.children.push({ separator: true });
      // Suspense's markers ("$", "/$") are the root's own business, not the page's.
      continue;
    }
    if (closing !== undefined) {
      if (parent.name !== closing) throw new Error(`</${closing}> closes <${parent.name}>`);
      open.pop();
      continue;
    }
    if (name !== undefined) {
      const element = { name, attributes: readAttributes(name, attributes), children: [] };
      parent.children.push(element);
      if (!selfClosed && !VOID.has(name)) open.push(element);
      continue;
    }
    parent.children.push({ text: decodeEntities(text) });
  }
  if (lastIndex !== html.length) throw new Error(`Unreadable HTML at ${lastIndex}`);
  if (open.length !== 1) throw new Error(`<${open[open.length - 1].name}> is never closed`);
  return `<>${root.children.map(toJsx).join("")}</>`;
}

function readAttributes(element, text) {
  const attributes = [];
  for (const [, name, quoted] of text.matchAll(/([^\s=/>]+)(?:="([^"]*)")?/g)) {
    const value = decodeEntities(quoted ?? "");
    let prop = PROP_NAMES[name] ?? name;
    if (!/^(aria|data)-/.test(prop)) prop = prop.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    if ((element === "input" || element === "textarea") && UNCONTROLLED[prop])
      prop = UNCONTROLLED[prop];
    if (prop === "style") throw new Error("Inline styles are not read (the site's CSP has none)");
    attributes.push(
      BOOLEAN.has(prop) && value === "" ? `${prop}` : `${prop}={${JSON.stringify(value)}}`,
    );
  }
  return attributes;
}

function toJsx(node) {
  if (node.separator) return "";
  if (node.text !== undefined) return `{${JSON.stringify(node.text)}}`;
  const attributes = node.attributes.map((attribute) => ` ${attribute}`).join("");
  if (node.name === "textarea") {
    // React writes a textarea's initial value as its content.
    const value = node.children.map((child) => child.text ?? "").join("");
    return `<textarea${attributes}${value ? ` defaultValue={${JSON.stringify(value)}}` : ""} />`;
  }
  if (node.children.length === 0) return `<${node.name}${attributes} />`;
  return `<${node.name}${attributes}>${node.children.map(toJsx).join("")}</${node.name}>`;
}
