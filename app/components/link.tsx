import { createContext, useContext, type AnchorHTMLAttributes, type ReactNode } from "react";
import {
  Link as RouterLink,
  NavLink as RouterNavLink,
  useHref,
  useLocation,
  type LinkProps,
} from "react-router";

/**
 * Whether this page loads scripts (app/utils/page-scripts.ts). Without them a router link is only
 * an `<a>`, so the links below render one straight away: the router's link does work per link for
 * client-side navigation that a page without scripts never does (the largest part of a plain
 * page's render after React itself).
 */
const PageScriptsContext = createContext(true);
export const PageScriptsProvider = PageScriptsContext.Provider;

/**
 * The anchor's own attributes: the link's props less those that mean something only to the
 * router's client-side navigation, then the address. The address is added to the object the
 * props were taken into, not written after a spread (`{ ...rest, href }`): V8 gives an object made
 * that way a shape whose keys it looks up afresh each time React walks them, several times slower
 * per element (D-176).
 */
function anchorProps(props: LinkProps, href: string): AnchorHTMLAttributes<HTMLAnchorElement> {
  const {
    to,
    discover,
    prefetch,
    reloadDocument,
    replace,
    state,
    preventScrollReset,
    relative,
    viewTransition,
    ...anchor
  } = props;
  return Object.assign(anchor, { href });
}

/** `<Link>` on a page with scripts; a plain `<a>` with the same address on a page without. */
export function Link(props: LinkProps) {
  if (useContext(PageScriptsContext)) return <RouterLink {...props} />;
  const { to } = props;
  if (typeof to === "string" && to.startsWith("/")) return <a {...anchorProps(props, to)} />;
  return <ResolvedAnchor {...props} />;
}

/** A relative address ("?edit=1") is resolved as the router would, against the route. */
function ResolvedAnchor(props: LinkProps) {
  const href = useHref(props.to, { relative: props.relative });
  return <a {...anchorProps(props, href)} />;
}

/** What our menus ask of a navigation link: its address, `end`, a class and its words. */
interface NavLinkProps {
  to: string;
  /** Marked only on its own page, not on the pages below it. */
  end?: boolean;
  className?: string;
  children: ReactNode;
}

/**
 * `<NavLink>` on a page with scripts; on a page without, an `<a>` marked as the router marks it
 * when it leads to this page (`aria-current="page"` and the `active` class), by the same rule:
 * the same path, or one below it unless `end`, whatever the letters' case.
 */
export function NavLink({ to, end = false, className, children }: NavLinkProps) {
  const { pathname } = useLocation();
  if (useContext(PageScriptsContext))
    return (
      <RouterNavLink to={to} end={end} className={className}>
        {children}
      </RouterNavLink>
    );
  const here = pathname.toLowerCase();
  const target = to.toLowerCase();
  // The router's own rule: "/events" is active on "/events/1"; "/" only on "/" itself.
  const slashAt = target !== "/" && target.endsWith("/") ? target.length - 1 : target.length;
  const active =
    here === target || (!end && here.startsWith(target) && here.charAt(slashAt) === "/");
  const classes = [className, active ? "active" : undefined].filter(Boolean).join(" ");
  return (
    <a href={to} className={classes || undefined} aria-current={active ? "page" : undefined}>
      {children}
    </a>
  );
}
