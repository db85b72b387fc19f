-- order_items without the unique index on its id: nothing reads a line by id, checkout makes it
-- `<order id>-<position>`, and the index cost each order a WAL page at a random place (decision 012).
-- The rows keep their rowids (lines of one position read back in the order they were written);
-- the stats triggers go with the old table and are made again as 0004 made them.
CREATE TABLE `__new_order_items` (
	`id` text NOT NULL,
	`order_id` text NOT NULL,
	`product_id` text NOT NULL,
	`variant_id` text,
	`product_name` text NOT NULL,
	`variant_name` text,
	`quantity` integer NOT NULL,
	`unit_price` integer NOT NULL,
	`subtotal` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`stock_taken` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variant_id`) REFERENCES `variants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_order_items`("rowid", "id", "order_id", "product_id", "variant_id", "product_name", "variant_name", "quantity", "unit_price", "subtotal", "position", "stock_taken") SELECT "rowid", "id", "order_id", "product_id", "variant_id", "product_name", "variant_name", "quantity", "unit_price", "subtotal", "position", "stock_taken" FROM `order_items`;--> statement-breakpoint
DROP TABLE `order_items`;--> statement-breakpoint
-- Triggers of `orders` name order_items: without the legacy rename SQLite checks them in the
-- moment the name is missing and refuses.
PRAGMA legacy_alter_table = ON;--> statement-breakpoint
ALTER TABLE `__new_order_items` RENAME TO `order_items`;--> statement-breakpoint
PRAGMA legacy_alter_table = OFF;--> statement-breakpoint
CREATE INDEX `order_items_order_idx` ON `order_items` (`order_id`,`position`);--> statement-breakpoint
CREATE INDEX `order_items_product_idx` ON `order_items` (`product_id`);--> statement-breakpoint
CREATE TRIGGER `order_items_stats_ai` AFTER INSERT ON `order_items` BEGIN
  INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
  SELECT o.`store_id`, o.`created_at` / 86400000, NEW.`product_id`, NEW.`quantity`, NEW.`subtotal`
  FROM `orders` o WHERE o.`id` = NEW.`order_id` AND o.`status` <> 'cancelled'
  ON CONFLICT (`store_id`, `day`, `product_id`) DO UPDATE SET `quantity` = `quantity` + excluded.`quantity`, `revenue` = `revenue` + excluded.`revenue`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_items_stats_au` AFTER UPDATE OF `quantity`, `subtotal`, `product_id`, `order_id` ON `order_items` BEGIN
  INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
  SELECT o.`store_id`, o.`created_at` / 86400000, OLD.`product_id`, -OLD.`quantity`, -OLD.`subtotal`
  FROM `orders` o WHERE o.`id` = OLD.`order_id` AND o.`status` <> 'cancelled'
  ON CONFLICT (`store_id`, `day`, `product_id`) DO UPDATE SET `quantity` = `quantity` + excluded.`quantity`, `revenue` = `revenue` + excluded.`revenue`;
  INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
  SELECT o.`store_id`, o.`created_at` / 86400000, NEW.`product_id`, NEW.`quantity`, NEW.`subtotal`
  FROM `orders` o WHERE o.`id` = NEW.`order_id` AND o.`status` <> 'cancelled'
  ON CONFLICT (`store_id`, `day`, `product_id`) DO UPDATE SET `quantity` = `quantity` + excluded.`quantity`, `revenue` = `revenue` + excluded.`revenue`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_items_stats_ad` AFTER DELETE ON `order_items` BEGIN
  INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
  SELECT o.`store_id`, o.`created_at` / 86400000, OLD.`product_id`, -OLD.`quantity`, -OLD.`subtotal`
  FROM `orders` o WHERE o.`id` = OLD.`order_id` AND o.`status` <> 'cancelled'
  ON CONFLICT (`store_id`, `day`, `product_id`) DO UPDATE SET `quantity` = `quantity` + excluded.`quantity`, `revenue` = `revenue` + excluded.`revenue`;
END;
