import { Form } from "react-router";
import { ErrorSummary, TextField } from "#app/components/form";

/**
 * "Find a booking": the reference a man quotes on the phone or in a letter, whichever event it is
 * at. Sent to /admin/find-booking, which opens that event's attendee list at his card.
 */
export function FindBookingForm({ value, error }: { value?: string; error?: string }) {
  return (
    <>
      <ErrorSummary errors={error ? { reference: error } : {}} />
      <Form method="get" action="/admin/find-booking" role="search" className="form">
        <TextField
          name="reference"
          label="Find a booking by its reference"
          hint="As on his confirmation e-mail, for example MHAT-7KQ3-9XZ2"
          defaultValue={value}
          error={error}
          autoComplete="off"
          spellCheck={false}
          maxLength={40}
        />
        <button type="submit" className="button button--secondary">
          Find the booking
        </button>
      </Form>
    </>
  );
}
