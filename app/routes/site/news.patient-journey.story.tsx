import { data } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/news.patient-journey.story";
import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { InitialsAvatar } from "#app/components/pictures";
import { findPatientJourney } from "#app/content/patient-journeys";
import { pipeHeaders } from "#app/utils/headers";

export const headers = pipeHeaders;

export function loader({ params }: Route.LoaderArgs) {
  const story = findPatientJourney(params.storyId);
  if (!story) throw data(null, { status: 404 });
  return { story };
}

export const meta = ({ loaderData }: Route.MetaArgs) =>
  loaderData ? pageMeta(loaderData.story.title, loaderData.story.description) : [];

export default function PatientJourneyStory({ loaderData: { story } }: Route.ComponentProps) {
  return (
    <article className="section">
      <div className="page-width">
        <BackLink to="/news#patient-journey">Back to News</BackLink>
        <div className="split split--aside">
          <aside className="card" aria-label={`About ${story.name}`}>
            <InitialsAvatar name={story.name} size={96} />
            <p className="person__name">{story.name}</p>
            <p className="person__role">{story.role}</p>
            {story.resources && (
              <>
                <h2 className="card__title">Resources</h2>
                <ul className="plain-list">
                  {story.resources.map((resource) => (
                    <li key={resource.to}>
                      <Link to={resource.to}>{resource.label}</Link>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </aside>
          <div className="prose">
            <h1>{story.title}</h1>
            <p className="lede">{story.description}</p>
            {story.article.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
            {/* The demo stories are invented (app/content/patient-journeys.ts); real ones replace
                them, told with permission. */}
          </div>
        </div>
      </div>
    </article>
  );
}
