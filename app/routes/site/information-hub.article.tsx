import { data } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/information-hub.article";
import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { PlaceholderImage } from "#app/components/pictures";
import { findHubArticle } from "#app/content/hub";
import { pipeHeaders } from "#app/utils/headers";

export const headers = pipeHeaders;

export function loader({ params }: Route.LoaderArgs) {
  const article = findHubArticle(params.articleId);
  if (!article) throw data(null, { status: 404 });
  return { article };
}

export const meta = ({ loaderData }: Route.MetaArgs) =>
  loaderData ? pageMeta(loaderData.article.title, loaderData.article.description) : [];

export default function HubArticle({ loaderData: { article } }: Route.ComponentProps) {
  return (
    <article className="section">
      <div className="page-width prose">
        <BackLink to="/information-hub">Back to the Information Hub</BackLink>
        <h1>{article.title}</h1>
        <p className="lede">{article.description}</p>
        <PlaceholderImage seed={article.id} alt="" />
        {article.sections.map((section) => (
          <section key={section.heading}>
            <h2>{section.heading}</h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
            {section.links?.map((link) => (
              <p key={link.href}>
                {link.href.startsWith("/") ? (
                  <Link to={link.href}>{link.text}</Link>
                ) : (
                  <a href={link.href}>{link.text}</a>
                )}
              </p>
            ))}
          </section>
        ))}
      </div>
    </article>
  );
}
