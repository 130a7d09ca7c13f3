-- Support's notes on a report are sealed like the report itself: they may
-- quote it, or say who the reporter is. (Migration 0034 kept them as text;
-- no note had been written anywhere yet.)
ALTER TABLE support_reports DROP COLUMN note;
ALTER TABLE support_reports ADD COLUMN note bytea;
