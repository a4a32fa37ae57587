import { createContext, useContext } from "react";
import {
  Link as RouterLink,
  NavLink as RouterNavLink,
  useHref,
  useLocation,
  type LinkProps,
  type NavLinkProps,
} from "react-router";

/**
 * Whether this page loads scripts (app/utils/page-scripts.ts). Without them a router link is only
 * an `<a>`, so the links below render one straight away: the router's link does work per link for
 * client-side navigation that a page without scripts never does (the largest part of a plain
 * page's render after React itself).
 */
const PageScriptsContext = createContext(true);
export const PageScriptsProvider = PageScriptsContext.Provider;

/** The router's props that mean something only to its client-side navigation. */
const ROUTER_ONLY = [
  "to",
  "discover",
  "prefetch",
  "reloadDocument",
  "replace",
  "state",
  "preventScrollReset",
  "relative",
  "viewTransition",
] as const;

function anchorProps(props: LinkProps): Omit<LinkProps, (typeof ROUTER_ONLY)[number]> {
  const anchor: Partial<LinkProps> = { ...props };
  for (const name of ROUTER_ONLY) delete anchor[name];
  return anchor;
}

/** `<Link>` on a page with scripts; a plain `<a>` with the same address on a page without. */
export function Link(props: LinkProps) {
  if (useContext(PageScriptsContext)) return <RouterLink {...props} />;
  const { to } = props;
  if (typeof to === "string" && to.startsWith("/")) return <a {...anchorProps(props)} href={to} />;
  return <ResolvedAnchor {...props} />;
}

/** A relative address ("?edit=1") is resolved as the router would, against the route. */
function ResolvedAnchor(props: LinkProps) {
  const href = useHref(props.to, { relative: props.relative });
  return <a {...anchorProps(props)} href={href} />;
}

/**
 * `<NavLink>` on a page with scripts; on a page without, an `<a>` marked as the router marks it
 * when it leads to this page (`aria-current="page"` and the `active` class), by the same rule:
 * the same path, or one below it unless `end`. Only string addresses and class names are used.
 */
export function NavLink(props: NavLinkProps & { to: string; className?: string }) {
  const { pathname } = useLocation();
  const scripts = useContext(PageScriptsContext);
  if (scripts) return <RouterNavLink {...props} />;
  const { to, end, caseSensitive, className, children, style, ...rest } = props;
  const here = caseSensitive ? pathname : pathname.toLowerCase();
  const target = caseSensitive ? to : to.toLowerCase();
  // The router's own rule: "/events" is active on "/events/1"; "/" only on "/" itself.
  const slashAt = target !== "/" && target.endsWith("/") ? target.length - 1 : target.length;
  const active =
    here === target || (!end && here.startsWith(target) && here.charAt(slashAt) === "/");
  const classes = [className, active ? "active" : undefined].filter(Boolean).join(" ");
  return (
    <a
      {...anchorProps({ ...rest, to })}
      href={to}
      className={classes || undefined}
      style={typeof style === "function" ? undefined : style}
      aria-current={active ? "page" : undefined}
    >
      {typeof children === "function"
        ? children({ isActive: active, isPending: false, isTransitioning: false })
        : children}
    </a>
  );
}
