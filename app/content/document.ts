/**
 * A page of the site's words kept as data (the privacy notice, the accessibility statement): a
 * title, a short opening, and sections that each become a heading with its paragraphs and lists.
 */

/** A link inside the text: a page of the site ("/my-data"), an address on the web or a mailto:. */
export interface TextLink {
  text: string;
  href: string;
}

/** A run of text: plain, or words and links one after the other. */
export type RichText = string | readonly (string | TextLink)[];

/** A paragraph, or a bulleted list. */
export type Block = RichText | { list: readonly RichText[] };

export interface DocumentSection {
  /** The heading's id, so the contents list at the top can link to it. */
  id: string;
  heading: string;
  blocks: readonly Block[];
}

export interface ContentDocument {
  title: string;
  /** For search engines and link previews. */
  description: string;
  lede: string;
  /** When the words last changed, as the page shows it ("24 November 2026"). */
  updated: string;
  sections: readonly DocumentSection[];
}

export function isList(block: Block): block is { list: readonly RichText[] } {
  return typeof block === "object" && "list" in block;
}
