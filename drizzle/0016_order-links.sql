CREATE TABLE `order_links` (
	`order_id` text PRIMARY KEY NOT NULL,
	`store_id` text NOT NULL,
	`token` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_links_token_uq` ON `order_links` (`token`);