/**
 * The reissue dialogs' "Old secret stops" choice (developer key page and support console): now, or after
 * one of the grace periods of REISSUE_GRACE_PERIODS, sent as the form field `grace`. The server checks it.
 */
import { REISSUE_GRACE_CHOICES, REISSUE_GRACE_LABELS } from '@/lib/keys/grace.ts';

export function GraceChoice() {
  return (
    <fieldset>
      <legend>Old secret stops</legend>
      <div className="radio-row">
        {REISSUE_GRACE_CHOICES.map((choice) => (
          <label key={choice}>
            <input type="radio" name="grace" value={choice} defaultChecked={choice === 'none'} />
            {REISSUE_GRACE_LABELS[choice]}
          </label>
        ))}
      </div>
      <p className="hint muted">
        Until then both secrets work, so a deployed client can be switched to the new one. If the old secret has leaked,
        stop it now.
      </p>
    </fieldset>
  );
}
