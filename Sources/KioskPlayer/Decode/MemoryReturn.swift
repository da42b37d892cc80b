import Glibc

/// Gives freed memory back to the system between items. glibc serves a large block from its heap once a block of
/// that size has been freed (its mmap threshold rises to the largest freed block), and a freed block inside a heap
/// stays resident until something reuses it. A slideshow frees an 8 MB 1920x1080 RGBA picture on one thread and
/// allocates the next on another, so those blocks piled up in the threads' arenas: a slideshow of 24 MP JPEGs at
/// 1920x1080 peaked 51-64 MiB over the idle baseline. `malloc_trim` at each new item returns the free pages of
/// every arena (not per frame, so a clip's frames cost nothing more).
enum MemoryReturn {
    /// Returns free heap pages to the system. `malloc_trim` is found at run time (nil handle: the default search),
    /// as <malloc.h> is not in Swift's Glibc module; where it is missing (another C library), nothing happens.
    static func trim() {
        guard let symbol = trimFunction else { return }
        _ = symbol(0)
    }

    private typealias MallocTrim = @convention(c) (Int) -> Int32
    private static let trimFunction: MallocTrim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: MallocTrim.self) }
}
