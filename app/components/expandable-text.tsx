import type { ReactNode } from "react";
import { truncateText } from "#app/domain/truncate";

/**
 * Text cut at `limit` characters with a Show More / Show Less toggle: a disclosure, so it works
 * with or without scripts. Open, the whole text takes the cut one's place.
 */
export function ExpandableText({
  text,
  limit,
  moreLabel = "Show More",
  lessLabel = "Show Less",
  subject,
}: {
  text: string;
  limit: number;
  moreLabel?: string;
  lessLabel?: string;
  /** Names the card for screen readers, e.g. "Show More about Who We Are". */
  subject: string;
}) {
  const { text: short, truncated } = truncateText(text, limit);
  if (!truncated) return <p>{text}</p>;
  return (
    <div className="expandable">
      <p className="expandable__short">{short}</p>
      <ShowMore moreLabel={moreLabel} lessLabel={lessLabel} subject={subject}>
        <p>{text}</p>
      </ShowMore>
    </div>
  );
}

/** A Show More disclosure (`<details>`): its label says what pressing it does next. */
export function ShowMore({
  moreLabel,
  lessLabel,
  subject,
  children,
}: {
  moreLabel: string;
  lessLabel: string;
  /** Names what it opens for screen readers, e.g. "Show More about Who We Are". */
  subject: string;
  children: ReactNode;
}) {
  return (
    <details className="show-more">
      <summary className="button button--link">
        <span className="show-more__when-closed">{moreLabel}</span>
        <span className="show-more__when-open">{lessLabel}</span>
        <span className="visually-hidden"> about {subject}</span>
      </summary>
      {children}
    </details>
  );
}
