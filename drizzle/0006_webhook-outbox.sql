CREATE TABLE `webhook_outbox` (
	`seq` integer PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`store_id` text NOT NULL,
	`event_type` text NOT NULL,
	`payload` text,
	`subject_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`store_id`) REFERENCES `stores`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `deliveries_due_idx`;--> statement-breakpoint
CREATE INDEX `deliveries_webhook_status_created_idx` ON `webhook_deliveries` (`webhook_id`,`status`,`created_at`);