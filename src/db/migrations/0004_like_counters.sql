-- Like counts in 16 shards per presentation (issue 4 benchmark): a like updates the shard of
-- its user, so concurrent likes of one popular presentation don't queue on a single row and
-- their commits can be grouped. The count is the sum of the shards, exact at every commit.

create table like_counters (
  presentation_id bigint not null references presentations (id) on delete cascade,
  shard smallint not null check (shard between 0 and 15),
  count integer not null default 0 check (count >= 0),
  primary key (presentation_id, shard)
);

insert into like_counters (presentation_id, shard, count)
select presentation_id, (user_id % 16)::smallint, count(*)::int from likes group by 1, 2;

alter table presentations drop column likes_count;
