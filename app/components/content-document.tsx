import { Fragment } from "react";
import { Link } from "#app/components/link";
import { BackLink } from "./back-link";
import { isList, type ContentDocument, type RichText } from "#app/content/document";

function Rich({ text }: { text: RichText }) {
  if (typeof text === "string") return text;
  return text.map((part, index) =>
    typeof part === "string" ? (
      <Fragment key={index}>{part}</Fragment>
    ) : part.href.startsWith("/") ? (
      <Link key={index} to={part.href}>
        {part.text}
      </Link>
    ) : (
      <a key={index} href={part.href}>
        {part.text}
      </a>
    ),
  );
}

/**
 * A page of words kept in app/content (the privacy notice, the accessibility statement): its
 * title, opening, a list of its sections to jump to, then each section.
 */
export function ContentDocumentPage({ document: doc }: { document: ContentDocument }) {
  return (
    <article className="section">
      <div className="page-width prose">
        <BackLink to="/">Back to the home page</BackLink>
        <h1>{doc.title}</h1>
        <p className="lede">{doc.lede}</p>
        <p className="hint">Last updated {doc.updated}.</p>
        <nav aria-labelledby="contents-heading">
          <h2 id="contents-heading">Contents</h2>
          <ul>
            {doc.sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.heading}</a>
              </li>
            ))}
          </ul>
        </nav>
        {doc.sections.map((section) => (
          <section key={section.id} aria-labelledby={section.id}>
            <h2 id={section.id}>{section.heading}</h2>
            {section.blocks.map((block, index) =>
              isList(block) ? (
                <ul key={index}>
                  {block.list.map((item, itemIndex) => (
                    <li key={itemIndex}>
                      <Rich text={item} />
                    </li>
                  ))}
                </ul>
              ) : (
                <p key={index}>
                  <Rich text={block} />
                </p>
              ),
            )}
          </section>
        ))}
      </div>
    </article>
  );
}
