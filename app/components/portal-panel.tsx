import { Form } from "react-router";
import { NavLink } from "#app/components/link";
import { InitialsAvatar } from "./pictures";

/** The portal's side panel: who is signed in, their ID, and where they can go. */
export function PortalPanel({ name, reference }: { name: string; reference: string | null }) {
  return (
    <aside className="card portal-panel" aria-label="Your account">
      <InitialsAvatar name={name} size={72} />
      <p className="person__name">{name}</p>
      {reference && <p className="person__role">ID: {reference}</p>}
      <nav aria-label="Your account">
        <ul className="plain-list">
          <li>
            <NavLink to="/portal" end>
              Profile
            </NavLink>
          </li>
          <li>
            <NavLink to="/my-bookings">My bookings</NavLink>
          </li>
          <li>
            <NavLink to="/medical-results">Medical Results</NavLink>
          </li>
          <li>
            <NavLink to="/my-data">My data</NavLink>
          </li>
        </ul>
      </nav>
      <Form method="post" action="/logout">
        <button type="submit" className="button button--secondary">
          Logout
        </button>
      </Form>
    </aside>
  );
}
