CREATE TABLE `order_opened` (
	`order_id` text NOT NULL,
	`user_id` text NOT NULL,
	`store_id` text NOT NULL,
	`order_created_at` integer NOT NULL,
	PRIMARY KEY(`order_id`, `user_id`),
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `order_opened_user_created_idx` ON `order_opened` (`user_id`,`order_created_at`);--> statement-breakpoint
-- The "new" marker becomes per person: an order someone of the store had opened counts as
-- opened by each member of the store, for the orders still inside the 30-day window of "new"
-- (modules/orders/seen.ts; older orders are never new, so need no row).
INSERT OR IGNORE INTO `order_opened` (`order_id`, `user_id`, `store_id`, `order_created_at`)
  SELECT s.`order_id`, m.`user_id`, s.`store_id`, o.`created_at`
    FROM `order_seen` s
    JOIN `orders` o ON o.`id` = s.`order_id`
    JOIN `memberships` m ON m.`store_id` = s.`store_id`
   WHERE o.`created_at` >= (CAST(strftime('%s', 'now') AS INTEGER) * 1000 - 2592000000);
