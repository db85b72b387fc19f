ALTER TABLE `webhook_deliveries` ADD `attempts_total` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Until now a manual retry set `attempts` back to 0: what it counts is the best known total.
UPDATE `webhook_deliveries` SET `attempts_total` = `attempts`;
