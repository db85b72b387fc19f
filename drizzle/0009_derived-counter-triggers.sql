-- Derived counters follow the rows they count, in the writer's own transaction, as the stats
-- rollups already do (0004): order_counts per (store, status) and each customer's order figures
-- are kept by triggers on `orders` from here on (the application code that kept them goes).
-- Existing rows are already counted: nothing to backfill.
CREATE TRIGGER `orders_counts_ai` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `order_counts` (`store_id`, `status`, `count`) VALUES (NEW.`store_id`, NEW.`status`, 1)
  ON CONFLICT (`store_id`, `status`) DO UPDATE SET `count` = `count` + 1;
  UPDATE `customers` SET `orders_count` = `orders_count` + 1, `total_spent` = `total_spent` + NEW.`total`,
    `first_order_at` = coalesce(`first_order_at`, NEW.`created_at`), `last_order_at` = NEW.`created_at`
  WHERE `id` = NEW.`customer_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `orders_counts_au` AFTER UPDATE OF `status` ON `orders` WHEN OLD.`status` IS NOT NEW.`status` BEGIN
  UPDATE `order_counts` SET `count` = `count` - 1 WHERE `store_id` = OLD.`store_id` AND `status` = OLD.`status`;
  INSERT INTO `order_counts` (`store_id`, `status`, `count`) VALUES (NEW.`store_id`, NEW.`status`, 1)
  ON CONFLICT (`store_id`, `status`) DO UPDATE SET `count` = `count` + 1;
END;
