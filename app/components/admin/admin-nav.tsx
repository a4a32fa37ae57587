import { Form } from "react-router";
import { NavLink } from "#app/components/link";

/** The back office's side navigation: the sections this person may open, and sign out. */
export function AdminNav({
  name,
  roleLabels,
  sections,
}: {
  name: string;
  roleLabels: string[];
  sections: readonly { href: string; label: string }[];
}) {
  return (
    <aside className="admin-nav" aria-label="Back office">
      <p className="admin-nav__who">
        <strong>{name}</strong>
        <br />
        <span>{roleLabels.join(", ")}</span>
      </p>
      <nav aria-label="Back office">
        <ul className="plain-list">
          {sections.map((section) => (
            <li key={section.href}>
              <NavLink to={section.href} end={section.href === "/admin"}>
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="post" action="/logout">
        <button type="submit" className="button button--secondary">
          Sign out
        </button>
      </Form>
    </aside>
  );
}
