//! Page-number pagination of list queries.

/// Which page of a list to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// 1-based page number, or `None` for the last page.
    pub number: Option<u64>,
    /// Items per page (at least 1).
    pub size: u64,
}

/// One page of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    /// Number of items in the whole list.
    pub count: u64,
    /// The 1-based number of this page.
    pub number: u64,
    /// Items per page.
    pub size: u64,
    /// Items on this page.
    pub items: Vec<T>,
}

impl<T> Page<T> {
    /// Number of the last page (1 for an empty list).
    pub fn last_number(&self) -> u64 {
        self.count.div_ceil(self.size).max(1)
    }

    /// Replaces the items by what `f` makes of them, keeping the position.
    pub fn try_map_items<U, E>(
        self,
        f: impl FnOnce(Vec<T>) -> Result<Vec<U>, E>,
    ) -> Result<Page<U>, E> {
        Ok(Page {
            count: self.count,
            number: self.number,
            size: self.size,
            items: f(self.items)?,
        })
    }
}

impl PageRequest {
    /// The requested page of an empty list; `None` for a page past its end.
    pub fn empty<T>(&self) -> Option<Page<T>> {
        let (number, _, _) = self.resolve(0)?;
        Some(Page {
            count: 0,
            number,
            size: self.size.max(1),
            items: Vec::new(),
        })
    }

    /// Resolves the page number against the list length: `None` when the
    /// page lies past the end (page 1 always exists).
    pub fn resolve(&self, count: u64) -> Option<(u64, i64, i64)> {
        let size = self.size.max(1);
        let last = count.div_ceil(size).max(1);
        let number = self.number.unwrap_or(last);
        if number == 0 || number > last {
            return None;
        }
        let offset = i64::try_from((number - 1) * size).ok()?;
        let limit = i64::try_from(size).ok()?;
        Some((number, offset, limit))
    }

    /// Counts with `count`, then loads the requested slice with
    /// `load(offset, limit)`, both on `conn`. Returns `None` for a page past the end.
    pub fn run<C, T, E>(
        &self,
        conn: &mut C,
        count: impl FnOnce(&mut C) -> Result<i64, E>,
        load: impl FnOnce(&mut C, i64, i64) -> Result<Vec<T>, E>,
    ) -> Result<Option<Page<T>>, E> {
        let count = u64::try_from(count(conn)?).unwrap_or(0);
        let Some((number, offset, limit)) = self.resolve(count) else {
            return Ok(None);
        };
        let items = if count == 0 {
            Vec::new()
        } else {
            load(conn, offset, limit)?
        };
        Ok(Some(Page {
            count,
            number,
            size: self.size.max(1),
            items,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_pages() {
        let req = |number, size| PageRequest { number, size };
        assert_eq!(req(Some(1), 50).resolve(0), Some((1, 0, 50)));
        assert_eq!(req(Some(2), 50).resolve(0), None);
        assert_eq!(req(Some(2), 50).resolve(51), Some((2, 50, 50)));
        assert_eq!(req(Some(3), 50).resolve(100), None);
        assert_eq!(req(None, 50).resolve(101), Some((3, 100, 50)));
        assert_eq!(req(None, 50).resolve(0), Some((1, 0, 50)));
        assert_eq!(req(Some(0), 50).resolve(10), None);
    }
}
