import { Link } from "react-router";
import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { PlaceholderImage } from "#app/components/pictures";
import { patientJourneys } from "#app/content/patient-journeys";

export const meta = () =>
  pageMeta("Patient Journey", "Men tell the story of their PSA test, in their own words.");

export default function PatientJourneyList() {
  return (
    <section className="section">
      <div className="page-width">
        <BackLink to="/news">Back to News</BackLink>
        <h1>Patient Journey</h1>
        <p className="lede">Men who came to our events tell their stories.</p>
        <div className="card-grid card-grid--two">
          {patientJourneys.map((story) => (
            <article key={story.id} className="card">
              <PlaceholderImage seed={story.id} alt="" width={480} height={270} />
              <h2 className="card__title">{story.title}</h2>
              <p>{story.description}</p>
              <div className="card__actions">
                <Link className="button button--secondary" to={`/news/patient-journey/${story.id}`}>
                  READ MORE<span className="visually-hidden">: {story.title}</span>
                </Link>
              </div>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
