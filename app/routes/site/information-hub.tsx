import { TeaserCard } from "#app/components/teaser-card";
import { Link } from "#app/components/link";
import { pageMeta } from "#app/components/meta";
import { LogoTile } from "#app/components/pictures";
import { hubArticles, ownResearch, researchItems, resources } from "#app/content/hub";

export const meta = () =>
  pageMeta(
    "Information Hub",
    "Plain-language guides to prostate health, men's health and health in the workplace, with research and support.",
  );

export default function InformationHub() {
  return (
    <>
      <section className="section" aria-labelledby="hub-title">
        <div className="page-width">
          <h1 id="hub-title">Information Hub</h1>
          <p className="lede">
            Clear information about prostate cancer, the PSA test and staying well after 40.
          </p>
          <div className="card-grid">
            {hubArticles.map((article) => (
              <TeaserCard
                key={article.id}
                id={article.id}
                anchor={article.anchor}
                title={article.title}
                description={article.description}
                to={`/information-hub/${article.id}`}
              />
            ))}
          </div>
        </div>
      </section>

      <section className="section section--alt" id="education" aria-labelledby="research-title">
        <div className="page-width">
          <h2 id="research-title">Research and Data</h2>
          <ul className="card-grid">
            {researchItems.map((item) => (
              <li key={item.href} className="card">
                <h3 className="card__title">
                  {item.external ? (
                    <a href={item.href} rel="external">
                      {item.title} <span className="hint">(another website)</span>
                    </a>
                  ) : (
                    <Link to={item.href}>{item.title}</Link>
                  )}
                </h3>
                <p>{item.description}</p>
              </li>
            ))}
          </ul>
          <p>
            More from us:{" "}
            {ownResearch.map((item, index) => (
              <span key={item.to}>
                {index > 0 && " and "}
                <Link to={item.to}>{item.title}</Link>
              </span>
            ))}
            .
          </p>
        </div>
      </section>

      <section className="section" id="resources" aria-labelledby="resources-title">
        <div className="page-width">
          <h2 id="resources-title">Resources</h2>
          <p>
            Organisations that offer support and advice. Their details will be confirmed before
            publication.
          </p>
          <ul className="card-grid">
            {resources.map((resource) => (
              <li key={resource.title} className="card">
                <LogoTile name={resource.title} />
                <h3 className="card__title">{resource.title}</h3>
                <p className="card__meta">Website: {resource.website}</p>
                <p>
                  Phone: <a href={`tel:${resource.phone.replace(/\s/g, "")}`}>{resource.phone}</a>
                </p>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
