import { Link } from "#app/components/link";
import { PlaceholderImage } from "./pictures";

/** A card that leads to a longer page: picture, title, a line of description, READ MORE. */
export function TeaserCard({
  id,
  title,
  description,
  to,
  anchor,
}: {
  id: string;
  title: string;
  description: string;
  to: string;
  /** A scroll target the navigation links to. */
  anchor?: string;
}) {
  return (
    <article id={anchor} className="card">
      <PlaceholderImage seed={id} alt="" width={480} height={270} />
      <h2 className="card__title">{title}</h2>
      <p>{description}</p>
      <div className="card__actions">
        <Link className="button button--secondary" to={to}>
          READ MORE<span className="visually-hidden">: {title}</span>
        </Link>
      </div>
    </article>
  );
}
