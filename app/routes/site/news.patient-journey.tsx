import { TeaserCard } from "#app/components/teaser-card";
import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
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
            <TeaserCard
              key={story.id}
              id={story.id}
              title={story.title}
              description={story.description}
              to={`/news/patient-journey/${story.id}`}
            />
          ))}
        </div>
      </div>
    </section>
  );
}
