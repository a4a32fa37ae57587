/** The staff page's messages, with no imports, for its browser code as well as its server code. */
export const STAFF_MESSAGES = {
  email: "Enter the e-mail address to send the invitation to",
  roles: "Choose at least one role",
  alreadyStaff: "That person already has a staff account. Change their roles below instead.",
  missing: "That person or invitation could not be found. Reload the page and try again.",
  ownAdmin:
    "You cannot remove your own Admin role. Ask another admin to do it, so that the charity always has an admin who can sign in.",
  ownAccount:
    "You cannot deactivate your own account. Ask another admin to do it, so that the charity always has an admin who can sign in.",
  invited: "Invitation sent. The link in it works for 3 days.",
  rolesSaved: "Roles saved.",
  staffAccessEnded:
    "Staff access ended. The account stays, so they can still see their own bookings and results.",
  deactivated: "Account deactivated. They have been signed out.",
  reactivated: "Account reactivated. They can sign in again.",
  revoked: "Invitation revoked. Its link no longer works.",
  ownTwoFactor:
    "You cannot reset your own two-factor sign-in. Ask another admin, or sign in with a recovery code.",
  twoFactorReset:
    "Two-factor sign-in reset. They have been signed out, and set it up again when they next sign in.",
} as const;
