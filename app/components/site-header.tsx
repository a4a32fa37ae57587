import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { Link, NavLink } from "#app/components/link";
import { mainNavigation, type NavItem } from "#app/content/navigation";
import { organisation } from "#app/content/organisation";
import { ChevronIcon, MailIcon, MenuIcon, PhoneIcon } from "./icons";

/** Pages that carry their own copy of the new-account notice, placed for the task at hand. */
const PATHS_WITH_OWN_ACCOUNT_NOTICE = new Set(["/login"]);

export function SiteHeader() {
  const {
    open: phoneMenuOpen,
    set: setPhoneMenuOpen,
    close: closePhoneMenu,
    details: phoneMenu,
  } = useOpenUntilNavigation();
  const menuButton = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // Escape closes the phone's menu and puts focus back on its button.
  useEffect(() => {
    if (!phoneMenuOpen) return;
    const close = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      closePhoneMenu();
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", close);
    return () => document.removeEventListener("keydown", close);
  }, [phoneMenuOpen, closePhoneMenu]);
  // The root loader says who is signed in; on an error page it may be missing.
  const signedIn = useRouteLoaderData<{ signedIn: boolean }>("root")?.signedIn ?? false;
  const { booking, general } = organisation.phones;

  return (
    <header className="site-header">
      <div className="contact-bar">
        <div className="page-width contact-bar__inner">
          {/* On small screens only the booking helpline stays in the bar (its label hidden, not
              removed); general enquiries and e-mail move into the menu and are in the footer. */}
          <ul className="contact-bar__list">
            <li>
              <a className="contact-bar__link" href={`tel:${booking.tel}`}>
                <PhoneIcon /> <span className="contact-bar__label">{booking.label}: </span>
                {booking.display}
              </a>
            </li>
            <li className="contact-bar__wide-only">
              <a className="contact-bar__link" href={`tel:${general.tel}`}>
                <PhoneIcon /> <span className="contact-bar__label">{general.label}: </span>
                {general.display}
              </a>
            </li>
            <li className="contact-bar__wide-only">
              <a className="contact-bar__link" href={`mailto:${organisation.emails.info}`}>
                <MailIcon /> CONTACT US
              </a>
            </li>
          </ul>
          <div className="contact-bar__actions">
            {signedIn ? (
              <Link className="button button--small button--secondary" to="/portal">
                Portal
              </Link>
            ) : (
              <Link className="button button--small button--secondary" to="/login">
                Login
              </Link>
            )}
            <Link className="button button--small button--donate" to={organisation.donatePath}>
              Donate
            </Link>
          </div>
        </div>
      </div>
      <div className="page-width masthead">
        <Link to="/" className="brand">
          <BrandMark />
          <span className="brand__text">
            {/* Both are read out, so the link's name holds the initials it may show (WCAG 2.5.3). */}
            <span className="brand__name">
              <span className="brand__long">{organisation.name}</span>{" "}
              <span className="brand__short">{organisation.shortName}</span>
            </span>
            <span className="brand__tagline">Advocacy for men's health</span>
          </span>
        </Link>
        {/* A disclosure, so that the menu opens and closes on a phone with or without scripts. */}
        <details
          ref={phoneMenu}
          className="menu-toggle"
          open={phoneMenuOpen}
          onToggle={(event) => setPhoneMenuOpen(event.currentTarget.open)}
        >
          <summary ref={menuButton} aria-controls="site-nav">
            <MenuIcon /> Menu
          </summary>
        </details>
      </div>
      <nav id="site-nav" className="site-nav" aria-label="Main">
        <ul className="page-width site-nav__list">
          {mainNavigation.map((item) => (
            <NavEntry key={item.to} item={item} />
          ))}
          {/* Small screens: the contact details the contact bar has no room for. */}
          <li className="site-nav__item site-nav__contact">
            <a className="site-nav__link" href={`tel:${general.tel}`}>
              <PhoneIcon /> {general.label}: {general.display}
            </a>
          </li>
          <li className="site-nav__item site-nav__contact">
            <a className="site-nav__link" href={`mailto:${organisation.emails.info}`}>
              <MailIcon /> Contact us: {organisation.emails.info}
            </a>
          </li>
        </ul>
      </nav>
      {/* People who are signed in have already registered on the new system; /login says it
          beside the form instead. */}
      {!signedIn && !PATHS_WITH_OWN_ACCOUNT_NOTICE.has(pathname) && <NewSystemBanner />}
    </header>
  );
}

/**
 * A top-level link with a dropdown. The dropdown opens on hover (CSS) and by its toggle, a
 * disclosure that works with or without scripts, for keyboards, touch screens and screen readers.
 * A closed dropdown's links are out of the Tab order. With scripts, Escape or a tap elsewhere also
 * closes it. (A browser without CSS :has() opens it on keyboard focus instead.)
 */
function NavEntry({ item }: { item: NavItem }) {
  const { open, set: setOpen, close: closeMenu, details } = useOpenUntilNavigation();
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent && event.key !== "Escape") return;
      if (event instanceof PointerEvent && ref.current?.contains(event.target as Node)) return;
      closeMenu();
    };
    document.addEventListener("keydown", close);
    document.addEventListener("pointerdown", close);
    return () => {
      document.removeEventListener("keydown", close);
      document.removeEventListener("pointerdown", close);
    };
  }, [open, closeMenu]);

  if (!item.children) {
    return (
      <li className="site-nav__item">
        <NavLink className="site-nav__link" to={item.to} end>
          {item.label}
        </NavLink>
      </li>
    );
  }
  const menuId = `submenu-${item.to.replace(/\W+/g, "")}`;
  return (
    <li ref={ref} className={`site-nav__item has-dropdown${open ? " is-open" : ""}`}>
      <NavLink className="site-nav__link" to={item.to} end>
        {item.label}
      </NavLink>
      <details
        ref={details}
        className="site-nav__toggle"
        open={open}
        onToggle={(event) => setOpen(event.currentTarget.open)}
      >
        <summary aria-controls={menuId}>
          <ChevronIcon />
          <span className="visually-hidden">{item.label} menu</span>
        </summary>
      </details>
      <ul id={menuId} className="site-nav__dropdown">
        {item.children.map((child) => (
          <li key={child.to}>
            <Link to={child.to}>{child.label}</Link>
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * Open/closed state of a disclosure that closes by itself on any navigation: it remembers where it
 * was opened. A disclosure opened before the page's scripts started (the browser opens a
 * `<details>` by itself) is taken as open once they have, so that Escape and a tap elsewhere close
 * it as they close one opened later; its `toggle` came before React was listening.
 */
function useOpenUntilNavigation() {
  const { key } = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const details = useRef<HTMLDetailsElement>(null);
  const open = openAt === key;
  // Follows the disclosure's own state, which the browser changes when its summary is pressed.
  const set = useCallback((nowOpen: boolean) => setOpenAt(nowOpen ? key : null), [key]);
  const close = useCallback(() => setOpenAt(null), []);
  // After the page's scripts start, and after each navigation, the element shows React's state,
  // except for one the browser opened before they started: that one is taken as open.
  useEffect(() => {
    if (details.current?.open) set(true);
  }, [set]);
  return { open, set, close, details };
}

function NewSystemBanner() {
  return (
    <div className="notice-banner" role="region" aria-label="New booking system">
      <p className="page-width">
        <strong>New booking system:</strong> not registered with us since 1 January 2025?{" "}
        <Link to="/signup">Create a new account</Link> before you book.
      </p>
    </div>
  );
}

export function BrandMark() {
  return (
    <svg
      className="brand__mark"
      viewBox="0 0 48 48"
      width="48"
      height="48"
      aria-hidden
      focusable={false}
    >
      <circle cx="24" cy="24" r="23" fill="#13294b" />
      <path
        d="M24 11c-6 0-10 4.4-10 10 0 8 10 16 10 16s10-8 10-16c0-5.6-4-10-10-10z"
        fill="#2ec4b6"
      />
      <circle cx="24" cy="21" r="4.5" fill="#fff" />
    </svg>
  );
}
