CREATE TABLE `order_stats_daily` (
	`store_id` text NOT NULL,
	`day` integer NOT NULL,
	`status` text NOT NULL,
	`orders` integer DEFAULT 0 NOT NULL,
	`revenue` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`store_id`, `day`, `status`),
	FOREIGN KEY (`store_id`) REFERENCES `stores`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `product_stats_daily` (
	`store_id` text NOT NULL,
	`day` integer NOT NULL,
	`product_id` text NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	`revenue` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`store_id`, `day`, `product_id`),
	FOREIGN KEY (`store_id`) REFERENCES `stores`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `visit_stats_daily` (
	`store_id` text NOT NULL,
	`day` integer NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`store_id`, `day`),
	FOREIGN KEY (`store_id`) REFERENCES `stores`(`id`) ON UPDATE no action ON DELETE cascade
);
