import { data } from "react-router";
import type { Route } from "./+types/medical-results";
import { pageMeta } from "#app/components/meta";
import { requireUser } from "#app/services/guards.server";
import { pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("Medical results", "Your medical results and appointments.");

export const headers = pipeHeaders;

/** Results and appointments arrive with the booking and results work; the page and its guard exist now. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return data(null, { headers: { "Cache-Control": "no-store" } });
}

export default function MedicalResults() {
  return (
    <>
      <h1>All Results</h1>
      <p className="lede">Your medical results and appointments</p>
      <p className="inset">No medical results or any appointment found</p>
    </>
  );
}
