-- Issue 32 item 4: every stored usage event paid for usage_events_presentation_idx (0003), which no
-- query reads: the batch statement's lookups use the partial indexes made for them (visitor, address,
-- step: 0012, 0027), retention the BRIN on received_at (0012), the charts the aggregates. Measured
-- on PostgreSQL 15, a plain event cost its backend about 4 µs more with it (about a fifth of
-- storing it).
drop index if exists usage_events_presentation_idx;
