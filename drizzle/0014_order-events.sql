CREATE TABLE `order_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`store_id` text NOT NULL,
	`order_id` text NOT NULL,
	`status` text NOT NULL,
	`previous` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`store_id`) REFERENCES `stores`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `order_events_store_id_idx` ON `order_events` (`store_id`,`id`);--> statement-breakpoint
CREATE INDEX `order_events_order_idx` ON `order_events` (`order_id`,`id`);--> statement-breakpoint
CREATE TABLE `order_seen` (
	`order_id` text PRIMARY KEY NOT NULL,
	`store_id` text NOT NULL,
	`seen_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- What happens to an order, in commit order, kept by triggers in the writer's own transaction
-- (as the counters of 0009): the live inbox reads it with a cursor, the order page as history.
CREATE TRIGGER `order_events_ai` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `order_events` (`store_id`, `order_id`, `status`, `previous`, `at`) VALUES (NEW.`store_id`, NEW.`id`, NEW.`status`, NULL, NEW.`created_at`);
END;
--> statement-breakpoint
CREATE TRIGGER `order_events_au` AFTER UPDATE OF `status` ON `orders` WHEN OLD.`status` IS NOT NEW.`status` BEGIN
  INSERT INTO `order_events` (`store_id`, `order_id`, `status`, `previous`, `at`) VALUES (NEW.`store_id`, NEW.`id`, NEW.`status`, OLD.`status`, NEW.`updated_at`);
END;
--> statement-breakpoint
-- Orders from before the inbox are not "new".
INSERT INTO `order_seen` (`order_id`, `store_id`, `seen_at`) SELECT `id`, `store_id`, `updated_at` FROM `orders`;
