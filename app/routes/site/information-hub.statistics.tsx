import { BackLink } from "#app/components/back-link";
import { BarChart } from "#app/components/bar-chart";
import { pageMeta } from "#app/components/meta";
import {
  nationalFigures,
  psaThresholds,
  statistics2023,
  statistics2024,
} from "#app/content/statistics";

export const meta = () =>
  pageMeta(
    "Screening statistics 2023",
    "What our 2023 PSA screening events found: 2,397 tests, 168 abnormal results and 26 cancers.",
  );

const fmt = (value: number) => value.toLocaleString("en-GB");

export default function Statistics() {
  const s = statistics2023;
  return (
    <section className="section">
      <div className="page-width">
        <BackLink to="/information-hub">Back to the Information Hub</BackLink>
        <h1>Screening statistics 2023</h1>
        <p className="lede">Every test we take helps us understand how screening can save lives.</p>
        <ul className="stat-grid">
          <li className="stat">
            <span className="stat__value">{fmt(s.tests)}</span> men tested
          </li>
          <li className="stat">
            <span className="stat__value">{fmt(s.abnormal)}</span> abnormal results (
            {s.abnormalPercent}%)
          </li>
          <li className="stat">
            <span className="stat__value">{s.cancers}</span> cancers found
          </li>
          <li className="stat">
            <span className="stat__value">{nationalFigures.abnormalLeadingToCancer}</span> abnormal
            results lead to a cancer diagnosis
          </li>
        </ul>
        <div className="split">
          <BarChart
            title="Figure 1: from tests to diagnoses, 2023"
            bars={[
              { label: "Men tested", value: s.tests },
              { label: "Abnormal PSA", value: s.abnormal },
              { label: "Cancers found", value: s.cancers },
            ]}
          />
          <BarChart
            title="Figure 2: treatment of the 26 cancers found in 2023"
            bars={[
              { label: "Radical treatment", value: s.radicalTreatment },
              { label: "Active surveillance", value: s.activeSurveillance },
            ]}
          />
        </div>
        <div className="prose">
          <h2>What the numbers mean</h2>
          <p>
            Of the {fmt(s.tests)} men we tested in 2023, {s.abnormal} ({s.abnormalPercent}%) had a
            PSA level above the threshold for their age. Each was guided to follow-up within six
            months. {s.cancers} cancers were diagnosed: {s.radicalTreatment} men had radical
            treatment and {s.activeSurveillance} were placed on active surveillance.
          </p>
          <h2>Our thresholds</h2>
          <table className="definition-table">
            <caption className="visually-hidden">PSA thresholds by age</caption>
            <thead>
              <tr>
                <th scope="col">Age</th>
                <th scope="col">Looked at more closely at or above</th>
              </tr>
            </thead>
            <tbody>
              {psaThresholds.map((row) => (
                <tr key={row.ages}>
                  <td>{row.ages}</td>
                  <td>{row.threshold}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>The bigger picture</h2>
          <ul>
            <li>
              In 2024 we tested {fmt(statistics2024.men)} men at {statistics2024.events} events.
            </li>
            <li>
              In the UK about {fmt(nationalFigures.newCasesPerYear)} men are diagnosed with prostate
              cancer each year, and about {fmt(nationalFigures.deathsPerYear)} die from it.
            </li>
            <li>
              Around {fmt(nationalFigures.prematureMaleDeaths)} men die prematurely each year in the
              UK.
            </li>
            <li>We are planning over {nationalFigures.eventsPlanned2025} events in 2025.</li>
          </ul>
        </div>
      </div>
    </section>
  );
}
