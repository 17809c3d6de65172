// recent.mjs -- the other players' moves since this seat's own last move.
//
// Told by the accounts (state.events): a `tile_placed` or a follower
// (`follower_placed`, `crop_added`) of another seat is remembered until an
// account of this seat's own action arrives, so that a player coming back
// to the board sees what the others did meanwhile.  A spectator, who makes
// no move, sees the latest turn's.  What arrived with this very state is
// told apart, to be drawn arriving.

/** @typedef {import("../types.js").ActionAccount} ActionAccount */
/** @typedef {{seat: number, x: number, y: number, kind: string}} RecentFollower */

export function createRecent() {
  /** "x,y" -> the seat that laid the tile there */
  const tiles = new Map();
  /** @type {RecentFollower[]} */
  let followers = [];

  return {
    tiles,
    get followers() {
      return followers;
    },
    /**
     * Takes the accounts of a state; returns what arrived with it.
     * @param {ActionAccount[]} accounts @param {number | null} me
     */
    take(accounts, me) {
      const arriving = {tiles: new Set(), followers: /** @type {RecentFollower[]} */ ([])};
      for (const acc of accounts) {
        if (typeof acc.seat !== "number") continue;
        if (acc.seat === me) {
          tiles.clear(), followers = [];
          arriving.tiles.clear(), arriving.followers = [];
          continue;
        }
        for (const ev of acc.events || []) {
          if (ev.kind === "tile_placed") {
            if (me === null) tiles.clear(), followers = [];
            tiles.set(`${ev.x},${ev.y}`, ev.seat);
            arriving.tiles.add(`${ev.x},${ev.y}`);
          } else if (ev.kind === "follower_placed" || ev.kind === "crop_added") {
            const f = {seat: ev.seat, x: ev.x, y: ev.y, kind: ev.feature};
            followers.push(f);
            arriving.followers.push(f);
          }
        }
      }
      return arriving;
    },
  };
}
