import { InfoIcon } from "./icons";

export function NewAccountNotice() {
  return (
    <div className="inset" role="note">
      <p className="status">
        <InfoIcon /> New booking system
      </p>
      <p>
        If you have not registered with us since 1 January 2025, you need to create a new account
        and password, even if you have booked with us before.
      </p>
    </div>
  );
}
