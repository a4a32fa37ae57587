import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";

export const meta = () =>
  pageMeta(
    "PSA testing for men over 80",
    "Guidance for men above 80 who are thinking about a PSA test: the benefits, the drawbacks and who to talk to.",
  );

export default function ElderlyPsaTesting() {
  const { medical } = organisation.phones;
  return (
    <article className="section">
      <div className="page-width prose">
        <BackLink to="/information-hub">Back to the Information Hub</BackLink>
        <h1>PSA testing for men over 80</h1>
        <p className="lede">
          Our screening events are for men aged 40 to 80. Here is our guidance if you are older.
        </p>
        <h2>Why our events stop at 80</h2>
        <p>
          Screening aims to find cancers early enough that treatment lengthens life. Many prostate
          cancers grow slowly. For men over 80, a cancer found by screening is less likely to cause
          harm in their lifetime, and the tests and treatment that follow a raised result can bring
          side effects of their own.
        </p>
        <h2>When a test can still help</h2>
        <ul>
          <li>
            If you have symptoms, such as difficulty passing urine, needing to go more often, blood
            in your urine or new bone pain.
          </li>
          <li>
            If you are fit and well and you and your doctor agree that finding a cancer would change
            what you do.
          </li>
          <li>If you have had a raised PSA before and your doctor wants to keep an eye on it.</li>
        </ul>
        <h2>Talk to your GP</h2>
        <p>
          Your GP knows your health and can arrange a PSA test if it is right for you. If you have
          symptoms, do not wait for a screening event: make an appointment with your GP.
        </p>
        <div className="inset">
          <p>
            Questions? Call our medical enquiries line on{" "}
            <a href={`tel:${medical.tel}`}>{medical.display}</a>.
          </p>
        </div>
      </div>
    </article>
  );
}
