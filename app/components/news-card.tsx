import { useId } from "react";
import { Link } from "#app/components/link";
import type { NewsItem } from "#app/content/news";
import { ShowMore } from "./expandable-text";
import { PlaceholderImage } from "./pictures";

/** A news card whose READ MORE opens the full story in place. */
export function NewsCard({ item }: { item: NewsItem }) {
  const id = useId();
  return (
    <article className="card" aria-labelledby={`${id}-title`}>
      <PlaceholderImage seed={`news-${item.id}`} alt="" width={480} height={270} />
      <h3 className="card__title" id={`${id}-title`}>
        {item.title}
      </h3>
      <p className="card__meta">{item.date}</p>
      <p>{item.description}</p>
      <ShowMore moreLabel="READ MORE" lessLabel="READ LESS" subject={item.title}>
        <div className="news-card__full">
          {item.fullDescription.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      </ShowMore>
      {item.link && (
        <div className="card__actions">
          <Link to={item.link.to}>{item.link.label}</Link>
        </div>
      )}
    </article>
  );
}
