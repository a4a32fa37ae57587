import { Form, data, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import { AdminTable } from "#app/components/admin/admin-table";
import type { Route } from "./+types/results.thresholds";
import { ErrorSummary, SubmitButton, TextField } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import type { FieldErrors } from "#app/domain/form-basics";
import { formValues } from "#app/domain/forms";
import { thresholdFieldName } from "#app/domain/psa-flag";
import { staffRoute } from "#app/services/guards.server";
import { listThresholds, saveThresholds } from "#app/services/results-admin.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("PSA thresholds", "The age-specific PSA thresholds that suggest a flag.");
export const headers = pipeHeaders;

export const loader = staffRoute("threshold:edit", async (_args: Route.LoaderArgs) => {
  const bands = await listThresholds(db());
  return data(
    {
      bands: bands.map(({ id, minAge, maxAge, thresholdNgMl }) => ({
        id,
        minAge,
        maxAge,
        thresholdNgMl,
      })),
    },
    { headers: NO_STORE },
  );
});

type ActionData =
  | { ok: false; fieldErrors: FieldErrors; values: Record<string, string> }
  | { ok: true; changed: number };

/**
 * Saves every band in one transaction; a bad or missing field keeps everything typed and saves
 * nothing (400, with a message beside each field).
 */
export const action = staffRoute("threshold:edit", async (args: Route.ActionArgs, staff) => {
  const form = await readForm(args.request);
  const values = formValues(form);
  const saved = await saveThresholds(db(), staff, values);
  if (!saved.ok)
    return data<ActionData>(
      { ok: false, fieldErrors: saved.fieldErrors, values },
      { status: 400, headers: NO_STORE },
    );
  return data<ActionData>({ ok: true, changed: saved.changed }, { headers: NO_STORE });
});

export default function Thresholds({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const failed = actionData && !actionData.ok ? actionData : null;
  const errors = failed?.fieldErrors ?? {};
  const fieldOrder = loaderData.bands.map((band) => thresholdFieldName(band.id));
  return (
    <>
      <p>
        <Link to="/admin/results">Back to results</Link>
      </p>
      <h1>PSA thresholds</h1>
      <p>
        When results come in, a PSA at or above the threshold for the man&apos;s age suggests{" "}
        <strong>Amber</strong>, and one below it suggests <strong>Green</strong>. Where an age band
        has no threshold, nothing is suggested and you set the flag yourself. A suggestion is only a
        suggestion: you choose the flag when you release each result.
      </p>
      <p>
        Changes apply to files imported from now on; results already imported keep the suggestion
        they were given.
      </p>
      <ErrorSummary errors={errors} fieldOrder={fieldOrder} />
      {actionData?.ok && (
        <div className="notice-panel" role="status">
          <p>
            Thresholds saved
            {actionData.changed === 0
              ? ": nothing had changed."
              : ` (${actionData.changed} ${actionData.changed === 1 ? "band" : "bands"} changed).`}
          </p>
        </div>
      )}
      <Form method="post" noValidate className="form">
        <input type="hidden" name="intent" value="save" />
        <AdminTable label="Thresholds by age" columns={["Age", "Threshold (ng/ml)"]}>
          {loaderData.bands.map((band) => {
            const name = thresholdFieldName(band.id);
            const ages = `${band.minAge} to ${band.maxAge}`;
            return (
              <tr key={band.id}>
                <th scope="row">{ages}</th>
                <td>
                  <TextField
                    name={name}
                    label={`Threshold for ages ${ages}, in ng/ml`}
                    hint="Blank for none, or a number like 1.00"
                    inputMode="decimal"
                    autoComplete="off"
                    spellCheck={false}
                    defaultValue={failed ? (failed.values[name] ?? "") : (band.thresholdNgMl ?? "")}
                    error={errors[name]}
                    key={`${name}-${failed ? "typed" : (band.thresholdNgMl ?? "")}`}
                  />
                </td>
              </tr>
            );
          })}
        </AdminTable>
        <SubmitButton busy={busy} busyLabel="Saving...">
          Save thresholds
        </SubmitButton>
      </Form>
    </>
  );
}
