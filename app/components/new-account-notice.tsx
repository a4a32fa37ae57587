import { Link } from "#app/components/link";
import { InfoIcon } from "./icons";

/**
 * The new-booking-system notice, placed beside the sign-in form. (Other pages show it as a
 * banner under the header; /login shows only this copy.)
 */
export function NewAccountNotice({ signupHref = "/signup" }: { signupHref?: string }) {
  return (
    <div className="inset" role="note">
      <p className="status">
        <InfoIcon /> New booking system
      </p>
      <p>
        If you have not registered with us since 1 January 2025, you need to{" "}
        <Link to={signupHref}>create a new account and password</Link>, even if you have booked with
        us before.
      </p>
    </div>
  );
}
