-- An order's events are found by the order's rowid instead of its random id: a new order's
-- event lands on the last page of the index, not on a page of its own (decision 012).
DROP INDEX `order_events_order_idx`;--> statement-breakpoint
ALTER TABLE `order_events` ADD `order_rowid` integer;--> statement-breakpoint
DROP TRIGGER `order_events_ai`;--> statement-breakpoint
CREATE TRIGGER `order_events_ai` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `order_events` (`store_id`, `order_id`, `order_rowid`, `status`, `previous`, `at`) VALUES (NEW.`store_id`, NEW.`id`, NEW.`rowid`, NEW.`status`, NULL, NEW.`created_at`);
END;--> statement-breakpoint
DROP TRIGGER `order_events_au`;--> statement-breakpoint
CREATE TRIGGER `order_events_au` AFTER UPDATE OF `status` ON `orders` WHEN OLD.`status` IS NOT NEW.`status` BEGIN
  INSERT INTO `order_events` (`store_id`, `order_id`, `order_rowid`, `status`, `previous`, `at`) VALUES (NEW.`store_id`, NEW.`id`, NEW.`rowid`, NEW.`status`, OLD.`status`, NEW.`updated_at`);
END;--> statement-breakpoint
UPDATE `order_events` SET `order_rowid` = (SELECT `rowid` FROM `orders` WHERE `orders`.`id` = `order_events`.`order_id`);--> statement-breakpoint
CREATE INDEX `order_events_order_rowid_idx` ON `order_events` (`order_rowid`,`id`);
