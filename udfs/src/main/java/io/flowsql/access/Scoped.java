package io.flowsql.access;

/**
 * What the room holds besides the data and hands out only through a door: something learned or computed over the
 * databases (the few-shot example library, the repair memory, the embedding retriever) that a stage may use only as
 * one door's tenant may see it. The room keeps the whole thing ({@link DataDoors#holding}); a stage asks its request's
 * door ({@link DataDoor#learned}) and gets {@link #through} that door: a view that already shows only what the door's
 * tenant may be shown. The interface lives here (not the implementations) so the room can hold them without depending
 * on the agents that define them.
 *
 * @param <V> the view one door gets
 */
public interface Scoped<V> {
    /** This as {@code door}'s tenant may see it on {@code door}'s database. */
    V through(DataDoor door);
}
