import { useId, useState } from "react";
import { Link } from "react-router";
import type { NewsItem } from "#app/content/news";
import { ToggleButton } from "./expandable-text";
import { PlaceholderImage } from "./pictures";

/** A news card whose READ MORE expands the full story in place. */
export function NewsCard({ item }: { item: NewsItem }) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const full = (
    <div className="news-card__full">
      {item.fullDescription.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </div>
  );
  return (
    <article className="card" aria-labelledby={`${id}-title`}>
      <PlaceholderImage seed={`news-${item.id}`} alt="" width={480} height={270} />
      <h3 className="card__title" id={`${id}-title`}>
        {item.title}
      </h3>
      <p className="card__meta">{item.date}</p>
      <p>{item.description}</p>
      <div className="no-js-only">{full}</div>
      <div id={id} className="js-only" hidden={!expanded}>
        {expanded && full}
      </div>
      <div className="card__actions">
        <ToggleButton
          expanded={expanded}
          controls={id}
          onToggle={() => setExpanded(!expanded)}
          subject={item.title}
        >
          {expanded ? "READ LESS" : "READ MORE"}
        </ToggleButton>
        {item.link && <Link to={item.link.to}>{item.link.label}</Link>}
      </div>
    </article>
  );
}
