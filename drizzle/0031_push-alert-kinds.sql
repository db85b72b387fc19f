ALTER TABLE `push_deliveries` ADD `grant` text DEFAULT 'orders:read' NOT NULL;--> statement-breakpoint
ALTER TABLE `push_outbox` ADD `kind` text DEFAULT 'order' NOT NULL;--> statement-breakpoint
ALTER TABLE `push_outbox` ADD `detail` text;