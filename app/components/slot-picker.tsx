import { SLOT_STATE_LABELS, type SlotChoice } from "#app/domain/slot-choices";

/**
 * "Available times": one radio button per time, in a fieldset with a legend, so it works by
 * keyboard (arrow keys move between times) and without JavaScript. A time that cannot be taken
 * is disabled and says why, in words.
 */
export function SlotPicker({
  name = "slotTime",
  choices,
  selected,
  error,
  legend = "Available times",
  hint = "Choose the time you would like. Each appointment takes a few minutes.",
  current,
  currentNote = "your time now",
}: {
  name?: string;
  choices: readonly SlotChoice[];
  selected?: string;
  error?: string;
  legend?: string;
  hint?: string;
  /** the time the person has now (changing a booking): shown, and not offered */
  current?: string;
  /** what `current` is called beside it */
  currentNote?: string;
}) {
  const id = `field-${name}`;
  const open = (choice: SlotChoice) => choice.state === "available" && choice.time !== current;
  const available = choices.filter(open).length;
  // The error summary links to the first time that can be chosen.
  const firstAvailable = choices.findIndex(open);
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <fieldset className="fieldset" aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}>
        <legend className="label label--large">{legend}</legend>
        <span className="field-hint" id={`${id}-hint`}>
          {hint} {available === 1 ? "1 time available." : `${available} times available.`}
        </span>
        {error && (
          <span className="field-error" id={`${id}-error`}>
            <span className="visually-hidden">Error:</span> {error}
          </span>
        )}
        <div className="radios radios--times">
          {choices.map((choice, index) => {
            const unavailable = !open(choice);
            const note =
              choice.time === current
                ? currentNote
                : choice.state !== "available"
                  ? SLOT_STATE_LABELS[choice.state]
                  : null;
            const optionId =
              index === firstAvailable ? id : `${id}-${choice.time.replace(":", "")}`;
            return (
              <div className={`radio${unavailable ? " radio--unavailable" : ""}`} key={choice.time}>
                <input
                  className="radio__input"
                  id={optionId}
                  type="radio"
                  name={name}
                  value={choice.time}
                  disabled={unavailable}
                  defaultChecked={selected === choice.time}
                />
                <label className="radio__label" htmlFor={optionId}>
                  {choice.time}
                  {note && <span className="radio__note"> ({note})</span>}
                </label>
              </div>
            );
          })}
        </div>
      </fieldset>
    </div>
  );
}
