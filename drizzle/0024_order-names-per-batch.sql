-- Checkout writes the name index once per batch (decision 013). FTS5 flushes its pending terms
-- into a new segment at every savepoint, and checkout places each order in one: the trigger
-- made a segment (and its merges) per order, ~25 µs. While a checkout transaction holds a row
-- here, `order_names_ai` leaves the batch's orders to the one INSERT … SELECT the batch runs
-- before its COMMIT; the row is gone again before then, so every other writer, and checkout
-- outside that window, is indexed by the trigger as before.
CREATE TABLE `order_names_batch` (`open` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
DROP TRIGGER `order_names_ai`;
--> statement-breakpoint
CREATE TRIGGER `order_names_ai` AFTER INSERT ON `orders` WHEN NOT EXISTS (SELECT 1 FROM `order_names_batch`) BEGIN
  INSERT INTO `order_names` (`rowid`, `name`, `store_id`) VALUES (NEW.`rowid`, NEW.`customer_name`, NEW.`store_id`);
END;
