/** Who just booked or updated something: features that show it (the Home tab) listen, those that do it tell. */

type Listener = (userId: string) => void;

/**
 * A person's own bookings and updates change what their Home tab shows. The booking and update
 * flows call `changed`; the Home tab listens. Features stay apart: neither imports the other.
 */
export class Activity {
  private readonly listeners = new Set<Listener>();

  changed(userId: string): void {
    for (const listener of this.listeners) listener(userId);
  }

  onChange(listener: Listener): void {
    this.listeners.add(listener);
  }
}
