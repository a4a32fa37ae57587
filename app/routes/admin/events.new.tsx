import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/events.new";
import {
  EVENT_FIELD_ORDER,
  EventFields,
  NEW_EVENT_VALUES,
} from "#app/components/admin/event-fields";
import { ErrorSummary, SubmitButton } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import type { FieldErrors } from "#app/domain/form-basics";
import { formValues } from "#app/domain/forms";
import { createEvent, eventFormChoices } from "#app/services/admin-events.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () => pageMeta("Create an event", "Create a screening event.");
export const headers = pipeHeaders;

export const loader = staffRoute("event:edit", async (_args: Route.LoaderArgs) => {
  return data(await eventFormChoices(db()), { headers: NO_STORE });
});

type ActionData = { fieldErrors: FieldErrors; values: Record<string, string> };

export const action = staffRoute("event:edit", async (args: Route.ActionArgs, staff) => {
  const form = await readForm(args.request);
  const saved = await createEvent(db(), staff, formValues(form));
  if (saved.ok) return redirect(`/admin/events/${saved.id}?saved=created`);
  if ("notFound" in saved) throw data("Not found", { status: 404 });
  return data<ActionData>(
    { fieldErrors: saved.fieldErrors, values: saved.values },
    { status: 400, headers: NO_STORE },
  );
});

export default function NewEvent({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { products, labs } = loaderData;
  const errors = actionData?.fieldErrors ?? {};
  return (
    <>
      <p>
        <Link to="/admin/events">Back to events</Link>
      </p>
      <h1>Create an event</h1>
      {products.length === 0 ? (
        <p>
          An event needs a product (what is tested, and its price).{" "}
          <Link to="/admin/products">Add a product first</Link>.
        </p>
      ) : (
        <>
          <p>
            The event is saved as a draft. Only staff see a draft: publish it from its page when it
            is ready, and it appears on the site.
          </p>
          <ErrorSummary errors={errors} fieldOrder={EVENT_FIELD_ORDER} />
          <Form method="post" noValidate className="form">
            <EventFields
              values={actionData?.values ?? NEW_EVENT_VALUES}
              errors={errors}
              products={products}
              labs={labs}
            />
            <SubmitButton busy={navigation.state === "submitting"} busyLabel="Saving...">
              Save as a draft
            </SubmitButton>
          </Form>
        </>
      )}
    </>
  );
}
