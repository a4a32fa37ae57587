import type { Route } from "./+types/medical.results";
import { db } from "#app/db/client.server";
import { appointmentsForProfile } from "#app/services/booking/appointments.server";
import { requireApiUser } from "#app/services/guards.server";
import { jsonEndpoint, jsonError, methodNotAllowed } from "#app/utils/http.server";
import { NO_STORE } from "#app/utils/headers";

/**
 * GET /api/medical/results/{profileId}: the signed-in person's own appointments and released
 * results. Any other profile id, existing or not, is 404: nobody learns whose ids are real.
 */
export const loader = jsonEndpoint(async ({ request, params }: Route.LoaderArgs) => {
  const user = await requireApiUser(request);
  const appointments = await appointmentsForProfile(db(), {
    userId: user.id,
    profileId: params.profileId,
  });
  if (!appointments) return jsonError(404, "Not found");
  return Response.json(
    {
      data: appointments.map((item) => ({
        appointment: {
          reference: item.reference,
          event_name: item.eventName,
          product_name: item.productName,
          event_date: item.eventDate,
          start_time: item.slotStart,
          upcoming: item.upcoming,
        },
        result: item.result && {
          test_result: item.result.value,
          test_unit: item.result.unit,
          comments: item.result.comments,
          sample_date: item.result.sampleDate,
          flag: item.result.flag,
          retest_years: item.result.retestYears,
        },
      })),
    },
    { headers: NO_STORE },
  );
});

/** Reading only: any other method is 405 in JSON. */
export function action() {
  return methodNotAllowed("GET, HEAD");
}
