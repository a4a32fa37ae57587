import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { Link, NavLink, PageScriptsProvider } from "./link";

/** Renders `element` on a page at `url` of a route `/admin/products`-like tree, as the server would. */
function render(url: string, element: ReactNode, scripts: boolean) {
  const router = createMemoryRouter(
    [
      {
        path: "*",
        element: <PageScriptsProvider value={scripts}>{element}</PageScriptsProvider>,
      },
    ],
    { initialEntries: [url] },
  );
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

describe("Link on a page without scripts", () => {
  it("is a plain anchor with the address and the anchor's own attributes", () => {
    expect(
      render(
        "/",
        <Link to="/about-us" className="button" discover="none" prefetch="intent">
          About us
        </Link>,
        false,
      ),
    ).toBe('<a class="button" href="/about-us">About us</a>');
  });

  it("resolves a relative address against the page, as the router does", () => {
    expect(render("/admin/products", <Link to="?edit=3#form">Edit</Link>, false)).toBe(
      '<a href="/admin/products?edit=3#form">Edit</a>',
    );
  });
});

describe("NavLink on a page without scripts", () => {
  const nav = (url: string, to: string, end = false) =>
    render(
      url,
      <NavLink className="site-nav__link" to={to} end={end}>
        Here
      </NavLink>,
      false,
    );

  it("marks the link to this page, and to a page above it unless end", () => {
    expect(nav("/events", "/events")).toBe(
      '<a href="/events" class="site-nav__link active" aria-current="page">Here</a>',
    );
    expect(nav("/events/42", "/events")).toContain('aria-current="page"');
    expect(nav("/events/42", "/events", true)).toBe(
      '<a href="/events" class="site-nav__link">Here</a>',
    );
  });

  it("does not take a path that only begins the same for one below it, nor / for every page", () => {
    expect(nav("/events-archive", "/events")).not.toContain("aria-current");
    expect(nav("/about-us", "/")).not.toContain("aria-current");
    expect(nav("/", "/", true)).toContain('aria-current="page"');
    expect(nav("/EVENTS", "/events")).toContain('aria-current="page"');
  });
});

describe("links on a page with scripts", () => {
  it("are the router's own, which navigate in the page", () => {
    const html = render("/", <Link to="/about-us">About us</Link>, true);
    expect(html).toContain('href="/about-us"');
    expect(html).toContain("data-discover");
    const nav = render("/events", <NavLink to="/events">Events</NavLink>, true);
    expect(nav).toContain('aria-current="page"');
    expect(nav).toContain("data-discover");
  });
});
