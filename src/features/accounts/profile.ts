import type { Queryable } from "../../db/client";
import type { Card } from "../../lib/card";
import { avatarColor, avatarInitials, ownerDisplayName } from "../../lib/owner";
import { type ContentChanges, LISTS_TAG, userTag } from "../content-changes";
import { listListedPresentationsOf } from "../presentation/repository";
import { presentationListCard } from "../presentation/service";
import { cachedByKey } from "../small-caches";
import { findUserByOid } from "./repository";

/** Spec §2 /user/{oid}/: how many of the owner's listed presentations the profile lists, newest first. */
export const PROFILE_PRESENTATIONS = 200;
/**
 * Profiles a process keeps (issue 32 item 2): each holds up to PROFILE_PRESENTATIONS cards, so
 * fewer than the view page's rows; the most asked for stay.
 */
const KEPT_PROFILES = 64;

export interface Profile {
  owner: { name: string; initials: string; color: string };
  presentations: Card[];
}

/** A profile nobody has: not kept (a person who signs up later is no change the feed names). */
class NoSuchProfile extends Error {}

/**
 * The profile pages' data by the owner's oid, kept per app until the owner's name or any listed
 * presentation changes (`user:{oid}`, `lists`), a minute at most (issue 32 item 2: with the page
 * cache off, a profile costs no statement while it is kept). Null for an oid nobody has.
 */
export function profileSource(db: Queryable, changes: ContentChanges): (oid: string) => Promise<Profile | null> {
  const kept = cachedByKey<Profile>(
    changes,
    KEPT_PROFILES,
    async (oid) => {
      const user = await findUserByOid(db, oid);
      if (!user) throw new NoSuchProfile();
      const presentations = await listListedPresentationsOf(db, user.id, PROFILE_PRESENTATIONS);
      return {
        owner: {
          name: ownerDisplayName(user),
          initials: avatarInitials(user),
          color: avatarColor({ email: user.email, username: user.username }),
        },
        presentations: presentations.map(presentationListCard),
      };
    },
    (oid) => [userTag(oid), LISTS_TAG],
  );
  return async (oid) => {
    try {
      return await kept(oid);
    } catch (error) {
      if (error instanceof NoSuchProfile) return null;
      throw error;
    }
  };
}
